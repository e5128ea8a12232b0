import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { applyRead } from '../../sessions/api/session-cache';
import { oneClickRead } from '../../sessions/api/session-actions-api';

/** oneClickRead for one group (or all when groupId is undefined), with the badges updated. */
export function useOneClickRead() {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const read = useCallback(
    async (groupId?: number) => {
      setBusy(true);
      try {
        await oneClickRead(groupId === undefined ? {} : { group_id: groupId });
        applyRead(qc, groupId);
        return true;
      } catch {
        // The request layer showed the translated error.
        return false;
      } finally {
        setBusy(false);
      }
    },
    [qc],
  );
  return { read, busy };
}
