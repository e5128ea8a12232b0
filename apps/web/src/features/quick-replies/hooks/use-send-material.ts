import { useCallback } from 'react';
import type { QuickReply, SessionItem } from '@parley/protocol';
import { addLocal } from '../../messages/local-messages.store';
import { newLocalMessage, useSendMessage } from '../../messages/hooks/use-send-message';

/**
 * Sends a material at once: a text one as a text message, an image or audio one as a media
 * message with the material's (already uploaded) media. Either way it is a local insert that
 * joins the outbox, so it is stored once per client_msg_id and can be retried like any message.
 */
export function useSendMaterial() {
  const { send } = useSendMessage();
  return useCallback(
    (user: SessionItem, item: QuickReply) => {
      if (item.kind === 'text' || !item.media) {
        send(user, item.content);
        return;
      }
      addLocal(newLocalMessage(user, { type: item.kind, content: '', media: item.media }));
    },
    [send],
  );
}
