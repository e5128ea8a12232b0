import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { GROUP_LIST_POLL_MS } from '@parley/protocol';
import { applyTimeTabs } from '../api/session-cache';

/**
 * Moves the cached chats that turned 24 hours quiet to the earlier tab, checked at the group
 * list's pace: the user lists are not polled, and no event tells of time passing.
 */
export function useTimeTabs(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const timer = setInterval(() => applyTimeTabs(qc), GROUP_LIST_POLL_MS);
    return () => clearInterval(timer);
  }, [qc]);
}
