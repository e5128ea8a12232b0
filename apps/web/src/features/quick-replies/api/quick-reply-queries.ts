import { queryOptions } from '@tanstack/react-query';
import type { CallInput, QuickReply } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

export const quickReplyListKey = ['quickReplies'] as const;

/** The seat's quick replies and materials, most recently updated first. */
export function quickReplyListQuery() {
  return queryOptions({
    queryKey: quickReplyListKey,
    queryFn: ({ signal }) => callApi('/v1/seat/chat/quickReplyList', {}, { signal }),
    select: (data) => data.list,
    // Materials change rarely; the composer reads them on every `/`.
    staleTime: 60_000,
  });
}

export function saveQuickReply(input: CallInput<'/v1/seat/chat/quickReplyDoType'>) {
  return callApi('/v1/seat/chat/quickReplyDoType', input);
}

export type { QuickReply };
