import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CallInput, CallResponse } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { seedChat } from '../../messages/api/message-cache';
import { selectGroup, setUserTimeType } from '../../../stores/console.store';
import { findCachedGroup, refreshLists } from '../../sessions/api/session-cache';
import { useSelectUser } from '../../sessions/hooks/use-select-user';

type Added = CallResponse<'/v1/seat/chat/addSession'>;

/** addSession, then the new chat opened in its group (Ungrouped) with its greeting shown. */
export function useAddChat() {
  const qc = useQueryClient();
  const openChat = useSelectUser();

  const open = useCallback(
    ({ session, message }: Added) => {
      seedChat(qc, session.session_id, message);
      const group = findCachedGroup(qc, session.group_id);
      if (group) selectGroup(group);
      setUserTimeType(session.user_time_type);
      openChat(session);
      refreshLists(qc);
    },
    [qc, openChat],
  );

  return useCallback(
    async (input: CallInput<'/v1/seat/chat/addSession'>) => {
      const added = await callApi('/v1/seat/chat/addSession', input, { notify: false });
      open(added);
      return added;
    },
    [open],
  );
}
