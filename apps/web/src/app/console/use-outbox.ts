import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { readItem } from '../../lib/storage';
import { outboxRunner } from '../../features/messages/outbox/outbox-runner';

/** Runs the outbox of the signed-in seat while the console is open (resumes after a reload). */
export function useOutbox(): void {
  const qc = useQueryClient();
  const seatId = readItem('userInfo')?.seat_id ?? null;
  useEffect(() => {
    if (seatId === null) return;
    outboxRunner.start(seatId, qc);
    return () => outboxRunner.stop();
  }, [seatId, qc]);
}
