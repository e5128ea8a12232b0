import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import type { QuickReply, SessionItem } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-core';
import { newClientMsgId } from '../../../lib/client-msg-id';
import { appendServerMessage, chatKey, type ChatData } from '../../chat/api/chat-queries';
import { useSendMessage } from '../../chat/hooks/use-send-message';
import { addLocal, removeLocal, type LocalMessage } from '../../chat/local-messages.store';

/**
 * Sends a material at once: a text one as a text message (the composer's own path), an image
 * or audio one as a media message with the material's media_id. Like any message it shows at
 * once as a local insert and is stored once per client_msg_id.
 */
export function useSendMaterial() {
  const qc = useQueryClient();
  const { t } = useTranslation('messages');
  const { send } = useSendMessage();

  return useCallback(
    async (user: SessionItem, item: QuickReply) => {
      if (item.kind === 'text' || !item.media_id) {
        send(user, item.content);
        return;
      }
      const local: LocalMessage = {
        msg_id: 0,
        session_id: user.session_id,
        client_msg_id: newClientMsgId(),
        direction: 'out',
        type: item.kind,
        content: '',
        original_content: null,
        media: item.media,
        status: 'pending',
        created_at: Date.now(),
        deleted: false,
        isLocalInsert: true,
        send_phone: user.send_phone,
        receiver_phone: user.receiver_phone,
      };
      addLocal(local);
      try {
        const saved = await callApi(
          '/v1/seat/chat/message',
          {
            send_phone: user.send_phone,
            receiver_phone: user.receiver_phone,
            type: item.kind,
            content: '',
            media_id: item.media_id,
            client_msg_id: local.client_msg_id,
          },
          { notify: false },
        );
        qc.setQueryData<ChatData>(chatKey(user.session_id), (d) => appendServerMessage(d, saved));
        removeLocal(user.session_id, local.client_msg_id);
        void qc.invalidateQueries({ queryKey: ['sessions'] });
      } catch (err) {
        // The material is still there to send again; a failed media insert would offer the
        // composer's text retry, so it is dropped instead.
        removeLocal(user.session_id, local.client_msg_id);
        notifications.show({
          color: 'red',
          title: t('messageSendFailed'),
          message: err instanceof ApiError ? err.message : '',
        });
      }
    },
    [qc, t, send],
  );
}
