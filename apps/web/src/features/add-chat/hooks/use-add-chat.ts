import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CallResponse } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { chatKey, type ChatData } from '../../chat/api/chat-queries';
import { selectGroup, setUserTimeType } from '../../console/console.store';
import { findCachedGroup } from '../../session-actions/api/session-cache';
import { useSelectUser } from '../../sessions/hooks/use-select-user';

type Added = CallResponse<'/v1/seat/chat/addSession'>;

/** addSession, then the new chat opened in its group (Ungrouped) with its greeting shown. */
export function useAddChat() {
  const qc = useQueryClient();
  const openChat = useSelectUser();

  const open = useCallback(
    ({ session, message }: Added) => {
      qc.setQueryData<ChatData>(chatKey(session.session_id), {
        pages: [{ list: [message], has_more: false, has_newer: false }],
        pageParams: [null],
      });
      const group = findCachedGroup(qc, session.group_id);
      if (group) selectGroup(group);
      setUserTimeType(session.user_time_type);
      openChat(session);
      void qc.invalidateQueries({ queryKey: ['groupList'] });
      void qc.invalidateQueries({ queryKey: ['sessions'] });
    },
    [qc, openChat],
  );

  return useCallback(
    async (input: {
      send_phone: string;
      receiver_phone: string;
      greeting: string;
      client_msg_id: string;
    }) => {
      const added = await callApi('/v1/seat/chat/addSession', input, { notify: false });
      open(added);
      return added;
    },
    [open],
  );
}
