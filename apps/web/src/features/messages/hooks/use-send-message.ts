import { useCallback } from 'react';
import type { MessageQuote, SessionItem } from '@parley/protocol';
import { newClientMsgId } from '../../../lib/client-msg-id';
import { addLocal, type LocalMessage } from '../local-messages.store';
import { discardLocal, retryLocal } from '../outbox/local-actions';
import { initialLocalStatus } from '../outbox/outbox-runner';

/** A local insert of an outgoing message to `user`'s chat, with a fresh client_msg_id. */
export function newLocalMessage(
  user: SessionItem,
  fields: Pick<LocalMessage, 'type' | 'content'> & Partial<LocalMessage>,
): LocalMessage {
  return {
    msg_id: 0,
    session_id: user.session_id,
    client_msg_id: newClientMsgId(),
    direction: 'out',
    original_content: null,
    media: null,
    status: initialLocalStatus(),
    fail_reason: null,
    created_at: Date.now(),
    deleted: false,
    reply_to: null,
    quote: null,
    reaction: null,
    isLocalInsert: true,
    send_phone: user.send_phone,
    receiver_phone: user.receiver_phone,
    error: null,
    ...fields,
  };
}

/**
 * Sending text: the message shows at once as a local insert and joins the outbox, which
 * sends it (and keeps it across a reload until the server has it). A refused message can be
 * retried with the same client_msg_id, or discarded (a failed upload is uploaded again).
 */
export function useSendMessage() {
  /**
   * `original`: what the operator wrote when `text` is its translation (outgoing translation);
   * `quote`: the message it replies to (shown above it at once, sent as `reply_to`).
   */
  const send = useCallback(
    (user: SessionItem, text: string, original?: string, quote?: MessageQuote | null) => {
      addLocal(
        newLocalMessage(user, {
          type: 'text',
          content: text,
          original_content: original ?? null,
          reply_to: quote?.msg_id ?? null,
          quote: quote ?? null,
        }),
      );
    },
    [],
  );

  return { send, retry: retryLocal, discard: discardLocal };
}
