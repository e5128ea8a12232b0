import { useEffect, useMemo, useRef } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { consoleStore, refreshSelectedUser, useConsole } from '../../../stores/console.store';
import { refreshChat } from '../../messages/api/message-cache';
import { refreshedSelection } from '../api/selected-user';
import { sessionListQuery } from '../api/session-cache';
import { lowerCachedUnread } from './use-select-user';

/** The user list of the selected group and time tab (disabled when no group is selected). */
export function useSessionList() {
  const qc = useQueryClient();
  const groupId = useConsole((s) => s.selectedGroup?.group_id ?? 0);
  const userTimeType = useConsole((s) => s.userTimeType);
  const reply = useConsole((s) => s.reply);
  const labelFilter = useConsole((s) => s.labelFilter);
  const query = useInfiniteQuery({
    ...sessionListQuery(groupId, userTimeType, reply, labelFilter),
    enabled: groupId > 0,
  });
  const users = useMemo(() => query.data?.pages.flatMap((p) => p.account_list) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;
  const seenLatest = useRef(new Map<number, number>());

  useEffect(() => {
    const selected = consoleStore.get().selectedUser;
    if (!selected) return;
    const changed = refreshedSelection(selected, users);
    if (changed) refreshSelectedUser(changed);
    const fresh = users.find((u) => u.session_id === selected.session_id);
    if (!fresh) return;
    // Activity in the open chat: reload its record (which also reads it on the server).
    const seen = seenLatest.current.get(fresh.session_id) ?? selected.latest_time;
    if (fresh.latest_time > seen) {
      seenLatest.current.set(fresh.session_id, fresh.latest_time);
      lowerCachedUnread(qc, fresh);
      void refreshChat(qc, fresh.session_id);
    }
  }, [users, qc]);

  return { ...query, users, total, groupId };
}
