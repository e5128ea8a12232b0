import type { MessageFailReason, MessageStatus } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { MessageRow } from '../../db/schema.js';
import { inTransaction } from '../../lib/tx.js';
import type { SeatEvents } from '../events/seat-events.js';
import { deliveryRepository } from './delivery.repository.js';

/**
 * Moves an outgoing message's delivery status (the outbox, a channel's receipt) and records its
 * `message.status` event in the same transaction, as every event commits with its change: a
 * reader that sees the status finds the event, and a crash between the two cannot lose the push.
 * Answers the message as moved, or null when the status could not move (already further on).
 */
export function recordDeliveryStatus(
  db: Db,
  events: SeatEvents,
  move: {
    msgId: number;
    status: MessageStatus;
    externalId?: string | null;
    /** The message as read before (saves reading it again). */
    known?: MessageRow;
    /** With `failed`: why, when the console has words for it. */
    failReason?: MessageFailReason | null;
  },
): Promise<MessageRow | null> {
  return inTransaction(db, async (trx) => {
    const changed = await deliveryRepository.advanceStatus(
      trx,
      move.msgId,
      move.status,
      move.externalId ?? null,
      move.known,
      move.failReason ?? null,
    );
    if (changed) {
      await events.messageStatus(trx, changed.seat_id, {
        session_id: changed.session_id,
        msg_id: changed.id,
        status: changed.status,
        ...(changed.status === 'failed' ? { fail_reason: changed.fail_reason ?? null } : {}),
      });
    }
    return changed;
  });
}
