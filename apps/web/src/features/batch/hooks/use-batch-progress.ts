import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BatchStatus } from '@parley/protocol';
import { refreshChat } from '../../messages/api/message-cache';
import { batchStatusQuery } from '../api/batch-queries';
import { refreshLists } from '../../sessions/api/session-cache';

/**
 * The status of a sent batch, polled while not done. When it is done, the user lists, the
 * group list and the records of the chats it reached are refreshed, so they show the message.
 */
export function useBatchProgress(initial: BatchStatus): BatchStatus {
  const qc = useQueryClient();
  const { data } = useQuery({ ...batchStatusQuery(initial.batch_id), initialData: initial });
  const status = data ?? initial;
  const refreshed = useRef(false);
  useEffect(() => {
    if (!status.done || refreshed.current) return;
    refreshed.current = true;
    refreshLists(qc);
    for (const r of status.results) {
      if (r.status === 'sent') void refreshChat(qc, r.session_id);
    }
  }, [status, qc]);
  return status;
}
