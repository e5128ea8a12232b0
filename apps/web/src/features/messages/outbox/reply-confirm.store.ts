import type { TeamRecentReply } from '@parley/protocol';
import { createStore, useStore } from '../../../lib/create-store';
import { onLogout } from '../../../lib/login-session';
import { updateLocal } from '../local-messages.store';

/**
 * A reply the server held back (409005: another member of the team replied to this customer
 * moments ago) until the operator says to send it anyway. The message waits as refused.
 */
export interface ReplyToConfirm {
  sessionId: number;
  clientMsgId: string;
  reply: TeamRecentReply;
}

export const replyConfirm = createStore<ReplyToConfirm | null>(null);
onLogout(() => replyConfirm.set(null));

export function useReplyConfirm(): ReplyToConfirm | null {
  return useStore(replyConfirm);
}

/** Send it anyway: resent with `confirmed` (the same client_msg_id: stored once). */
export function confirmReply(): void {
  const asked = replyConfirm.get();
  if (!asked) return;
  replyConfirm.set(null);
  updateLocal(asked.sessionId, asked.clientMsgId, {
    // The runner sends it at once (or marks it waiting while the server is away).
    status: 'pending',
    error: null,
    confirmed: true,
  });
}

/** Not sent: it stays refused in the chat (Retry asks again, Delete drops it). */
export function dismissReply(): void {
  replyConfirm.set(null);
}
