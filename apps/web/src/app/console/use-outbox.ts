import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { readItem } from '../../lib/storage';
import { outboxRunner, type OutboxLists } from '../../features/messages/outbox/outbox-runner';
import { groupKeys, refreshLists } from '../../features/sessions/api/session-cache';

/** The outbox learns of the lists here, where both features are composed. */
const lists: OutboxLists = {
  isPolledList: (queryKey) => queryKey[0] === groupKeys.all[0],
  refreshChats: (qc: QueryClient) => refreshLists(qc, 'sessions'),
};

/** Runs the outbox of the signed-in seat while the console is open (resumes after a reload). */
export function useOutbox(): void {
  const qc = useQueryClient();
  const seatId = readItem('userInfo')?.seat_id ?? null;
  useEffect(() => {
    if (seatId === null) return;
    outboxRunner.start(seatId, qc, lists);
    return () => outboxRunner.stop();
  }, [seatId, qc]);
}
