import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@parley/protocol';
import { quickReplyListKey, quickReplyListQuery, saveQuickReply } from '../api/quick-reply-queries';

/** The seat's materials, and saving (add, edit, del) that refreshes them. */
export function useQuickReplies(enabled = true) {
  const qc = useQueryClient();
  const query = useQuery({ ...quickReplyListQuery(), enabled });
  const save = useCallback(
    async (input: CallInput<'/v1/seat/chat/quickReplyDoType'>) => {
      const answer = await saveQuickReply(input);
      await qc.invalidateQueries({ queryKey: quickReplyListKey });
      return answer;
    },
    [qc],
  );
  return { list: query.data ?? [], isPending: query.isPending, save };
}
