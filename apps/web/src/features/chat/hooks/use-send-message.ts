import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-core';
import { newClientMsgId } from '../../../lib/client-msg-id';
import { appendServerMessage, chatKey, type ChatData } from '../api/chat-queries';
import { appendToChatWindows } from '../api/chat-window-query';
import { addLocal, removeLocal, updateLocal, type LocalMessage } from '../local-messages.store';

/**
 * Sending: the message shows at once as a local insert (pending), then is replaced by the
 * server's copy, or marked failed; a retry resends with the same client_msg_id, which the
 * server stores only once.
 */
export function useSendMessage() {
  const qc = useQueryClient();
  const { t } = useTranslation('messages');

  const post = useCallback(
    async (local: LocalMessage) => {
      try {
        const saved = await callApi(
          '/v1/seat/chat/message',
          {
            send_phone: local.send_phone,
            receiver_phone: local.receiver_phone,
            type: 'text',
            content: local.content,
            client_msg_id: local.client_msg_id,
          },
          { notify: false },
        );
        qc.setQueryData<ChatData>(chatKey(local.session_id), (d) => appendServerMessage(d, saved));
        appendToChatWindows(qc, saved);
        removeLocal(local.session_id, local.client_msg_id);
        void qc.invalidateQueries({ queryKey: ['sessions'] });
      } catch (err) {
        updateLocal(local.session_id, local.client_msg_id, { status: 'failed' });
        notifications.show({
          color: 'red',
          title: t('messageSendFailed'),
          message: err instanceof ApiError ? err.message : '',
        });
      }
    },
    [qc, t],
  );

  const send = useCallback(
    (user: SessionItem, text: string) => {
      const local: LocalMessage = {
        msg_id: 0,
        session_id: user.session_id,
        client_msg_id: newClientMsgId(),
        direction: 'out',
        type: 'text',
        content: text,
        media: null,
        status: 'pending',
        created_at: Date.now(),
        deleted: false,
        isLocalInsert: true,
        send_phone: user.send_phone,
        receiver_phone: user.receiver_phone,
      };
      addLocal(local);
      void post(local);
    },
    [post],
  );

  const retry = useCallback(
    (local: LocalMessage) => {
      updateLocal(local.session_id, local.client_msg_id, { status: 'pending' });
      void post({ ...local, status: 'pending' });
    },
    [post],
  );

  return { send, retry };
}
