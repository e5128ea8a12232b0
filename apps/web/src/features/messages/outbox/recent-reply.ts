import { teamRecentReply, type TeamRecentReply } from '@parley/protocol';

/**
 * The 409005's `data` (who replied, when), or null when it is not as the protocol says. A
 * module of its own, loaded when a 409005 arrives: its schema brings zod, which the console's
 * first screen does without.
 */
export function recentReplyOf(data: unknown): TeamRecentReply | null {
  const parsed = teamRecentReply.safeParse(data);
  return parsed.success ? parsed.data : null;
}
