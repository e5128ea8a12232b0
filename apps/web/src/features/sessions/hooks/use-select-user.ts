import { useCallback } from 'react';
import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { SessionItem } from '@parley/protocol';
import { clearSessionUnread, lowerGroupUnread } from '../api/unread';
import { consoleStore, selectUser } from '../../../stores/console.store';
import { chatKey, refreshChat, resetChatPages } from '../../messages/api/message-cache';
import type { SessionPage } from '../api/session-cache';
import {
  cancelLists,
  groupKeys,
  refreshLists,
  sessionKeys,
  type GroupListData,
} from '../api/session-cache';

/**
 * Lowers the cached unread counts by what the chat held: its own, its group's, the total
 * and its time tab's (spec section 4). The record call clears them on the server and the
 * next poll confirms.
 */
export function lowerCachedUnread(qc: QueryClient, user: SessionItem): void {
  if (user.un_read_count <= 0) return;
  // A poll answered before the server cleared the chat must not bring the counts back.
  cancelLists(qc);
  confirmAfterRecord(qc, user.session_id);
  qc.setQueriesData<GroupListData>({ queryKey: groupKeys.all }, (old) =>
    old ? lowerGroupUnread(old, user) : old,
  );
  qc.setQueriesData<InfiniteData<SessionPage>>({ queryKey: sessionKeys.all }, (old) =>
    clearSessionUnread(old, user.session_id),
  );
}

/** Once the chat's record has loaded (it clears the unread on the server), re-read the counts. */
function confirmAfterRecord(qc: QueryClient, sessionId: number): void {
  const key = JSON.stringify(chatKey(sessionId));
  const cache = qc.getQueryCache();
  const stop = () => {
    clearTimeout(timer);
    unsubscribe();
  };
  const unsubscribe = cache.subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    if (JSON.stringify(event.query.queryKey) !== key) return;
    stop();
    refreshLists(qc);
  });
  const timer = setTimeout(stop, 60_000);
}

/**
 * Opens a chat: its message list restarts at the newest page and its unread clears. The open
 * chat, marked unread meanwhile (by the seat's other console, which this one respects: it
 * keeps the chat open and shows the mark), is read again by choosing it again.
 */
export function useSelectUser(): (user: SessionItem) => void {
  const qc = useQueryClient();
  return useCallback(
    (user: SessionItem) => {
      if (consoleStore.get().selectedUser?.session_id === user.session_id) {
        if (user.un_read_count <= 0) return;
        lowerCachedUnread(qc, user);
        selectUser({ ...user, un_read_count: 0 });
        // The record call is what reads a chat on the server.
        void refreshChat(qc, user.session_id);
        return;
      }
      resetChatPages(qc, user.session_id);
      lowerCachedUnread(qc, user);
      selectUser({ ...user, un_read_count: 0 });
    },
    [qc],
  );
}
