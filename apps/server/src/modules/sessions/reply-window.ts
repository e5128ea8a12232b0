import { channelAbilities } from '@parley/protocol';

const HOUR_MS = 60 * 60 * 1000;

/**
 * A chat's reply window, by its channel's ability (`replyWindowHours` in the protocol's
 * CHANNELS), never its name: stored as `sessions.reply_until` (migration 046) and answered as
 * the chat's `can_reply` and `reply_until`. Stored: null, the channel has no window (free text
 * always goes); 0, the customer has not written within one (a chat the operator opened, an
 * account just moved to such a channel); else the moment free text stops being accepted.
 */
export const REPLY_WINDOW = {
  /** A chat no customer message has opened a window in yet (addSession, a channel switch). */
  unopened(channel: string): number | null {
    return channelAbilities(channel).replyWindowHours === null ? null : 0;
  },

  /** After the customer wrote at `at` (the receive rules: each customer message moves it). */
  after(channel: string, at: number): number | null {
    const hours = channelAbilities(channel).replyWindowHours;
    return hours === null ? null : at + hours * HOUR_MS;
  },

  /**
   * The chat's answer at `now`. `can_reply` is true at that moment; a client keeps it true while
   * its clock is before `reply_until` (a cached list is not read again when a window closes).
   */
  present(stored: number | null, now: number): { can_reply: boolean; reply_until: number | null } {
    if (stored === null) return { can_reply: true, reply_until: null };
    const until = Number(stored);
    return until === 0
      ? { can_reply: false, reply_until: null }
      : { can_reply: until > now, reply_until: until };
  },

  /** `present` as jsonb pairs over the stored column `col`, at the statement's time. */
  presentSql(col: string): string {
    const now = `(extract(epoch from statement_timestamp()) * 1000)::bigint`;
    return `'can_reply', (${col} is null or ${col} > ${now}),
      'reply_until', nullif(${col}, 0)`;
  },
};
