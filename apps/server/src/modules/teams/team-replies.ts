import { ERROR_CODES, TEAM_REPLY_CONFIRM_MS, type TeamRecentReply } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { teamsRepository } from './teams.repository.js';

/** What a reply is judged by: its chat's two numbers, and whether the operator confirmed. */
export interface ReplyTarget {
  send_phone: string;
  receiver_phone: string;
  confirmed?: boolean | undefined;
}

/**
 * Issue 35: "a reply sent within 10 s after another member's reply to the same customer asks
 * for confirmation first", enforced here so two consoles racing are both caught: a reply to a
 * customer of a team account less than TEAM_REPLY_CONFIRM_MS after another member's reply to
 * them is refused (409005, with who and when) unless the request says `confirmed`. The last
 * reply is kept per customer of the number (`team_replies`), so it holds across hand-overs and
 * instances. An account that is not a team account is its seat's own (its seat sends): nothing
 * is refused or written for it.
 */
export class TeamReplyGuard {
  constructor(private readonly db: Db) {}

  /** Refuses the reply (409005) or answers whether it is a team chat's (to be recorded). */
  async check(seatId: number, input: ReplyTarget, now = Date.now()): Promise<boolean> {
    const row = await teamsRepository.lastReply(this.db, input.send_phone, input.receiver_phone);
    // Its own account's chat (or none: the send's own rules answer): not a team chat.
    if (!row || row.account_seat_id === null || row.account_seat_id === seatId) return false;
    if (
      !input.confirmed &&
      row.seat_id !== null &&
      row.seat_id !== seatId &&
      row.at !== null &&
      now - Number(row.at) < TEAM_REPLY_CONFIRM_MS
    ) {
      const data: TeamRecentReply = {
        seat_id: row.seat_id,
        nickname: row.nickname ?? String(row.seat_id),
        at: Number(row.at),
      };
      throw new AppError(ERROR_CODES.TEAM_RECENT_REPLY, undefined, data);
    }
    return true;
  }

  /** A team chat's reply was sent by this member at `at`. */
  async recorded(seatId: number, input: ReplyTarget, at: number): Promise<void> {
    await teamsRepository.recordReply(this.db, input.send_phone, input.receiver_phone, seatId, at);
  }
}
