import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { SessionItem, WhatsappTemplateSend } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { upsertMessage } from '../../messages/api/message-cache';
import { refreshLists } from '../../sessions/api/session-cache';

/**
 * Sends a template to a WhatsApp chat; the stored message (the template as the customer reads
 * it) joins the chat. `clientMsgId`: one per filled form, so a retry after a lost answer is
 * the same message.
 */
export function useSendTemplate() {
  const qc = useQueryClient();
  return useCallback(
    async (user: SessionItem, template: WhatsappTemplateSend, clientMsgId: string) => {
      const message = await callApi(
        '/v1/seat/wa/sendTemplate',
        { session_id: user.session_id, client_msg_id: clientMsgId, template },
        { notify: false },
      );
      upsertMessage(qc, message);
      refreshLists(qc, 'sessions');
      return message;
    },
    [qc],
  );
}
