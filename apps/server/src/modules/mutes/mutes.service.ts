import type { CallRequest, CallResponse } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { notFound } from '../../lib/app-error.js';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { inTransaction } from '../../lib/tx.js';
import type { SeatEvents } from '../events/seat-events.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { mutesRepository } from './mutes.repository.js';

/**
 * Muted chats: per seat and chat, so a seat's choice is its own. A muted chat's customer
 * messages are not notified (PushService asks mutedAmong); the consoles mark its row.
 */
export class MutesService {
  constructor(
    private readonly db: Db,
    private readonly events: SeatEvents,
  ) {}

  /**
   * Sets the state; setting the one it has answers it unchanged (no event). Another seat's
   * chat is answered as a missing one (400001), and nothing is written.
   */
  async mute(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/mute'>,
  ): Promise<CallResponse<'/v1/seat/chat/mute'>> {
    const { session_id: sessionId, muted } = input;
    await inTransaction(this.db, async (trx) => {
      if (!(await sessionsRepository.findForSeat(trx, seatId, sessionId))) throw notFound();
      const changed = muted
        ? await mutesRepository.add(trx, seatId, sessionId, Date.now()).catch((err) => {
            // The chat was deleted since it was read (a racing delSession).
            if (isForeignKeyViolation(err)) throw notFound();
            throw err;
          })
        : await mutesRepository.remove(trx, seatId, sessionId);
      // Every console of the seat marks (or unmarks) the row.
      if (changed) await this.events.sessionMuted(trx, seatId, sessionId, muted);
    });
    return { session_id: sessionId, muted };
  }

  async mutedChats(seatId: number): Promise<CallResponse<'/v1/seat/chat/mutedChats'>> {
    return { session_ids: await mutesRepository.listForSeat(this.db, seatId) };
  }
}
