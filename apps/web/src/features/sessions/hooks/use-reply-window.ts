import { useEffect, useState } from 'react';
import type { SessionItem } from '@parley/protocol';

/**
 * Whether free text goes in this chat now: its channel's reply window, read from the chat's
 * own fields (`can_reply`, `reply_until`), which move with the pushed events and lists. The
 * window also closes with time alone: re-rendered at `reply_until`.
 */
export function useReplyWindow(user: Pick<SessionItem, 'can_reply' | 'reply_until'>) {
  const until = user.reply_until;
  // The window closes with time alone (its fields do not change then): the `reply_until` seen
  // to pass (also at once when a kept list answer holds one already past).
  const [passed, setPassed] = useState<number | null>(null);
  useEffect(() => {
    if (until === null) return;
    // setTimeout's ceiling is about 24.8 days: a window that long is re-checked then.
    const wait = Math.min(Math.max(0, until - Date.now() + 50), 2 ** 31 - 1);
    const timer = setTimeout(() => {
      if (Date.now() >= until) setPassed(until);
    }, wait);
    return () => clearTimeout(timer);
  }, [until]);
  return {
    /** Free text is accepted (the channel has no window, or it is open). */
    canReply: user.can_reply && (until === null || passed !== until),
    /** When it closes or closed; null: no window, or the customer never wrote within one. */
    until,
    /** The chat's channel has a reply window. */
    windowed: until !== null || !user.can_reply,
  };
}
