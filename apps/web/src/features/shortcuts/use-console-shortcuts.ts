import { useState } from 'react';
import { useWindowEvent } from '@mantine/hooks';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { SessionItem } from '@parley/protocol';
import { consoleStore } from '../../stores/console.store';
import { sessionListQuery, type SessionPage } from '../sessions/api/session-cache';
import { useSelectUser } from '../sessions/hooks/use-select-user';
import { dialogOpen, focusComposer, isTyping, requestComposerFocus } from '../../lib/keyboard';

/** The chat `step` rows away from the open one (or the first), or the next unread one. */
export function pickChat(
  users: readonly SessionItem[],
  openId: number | null,
  move: 1 | -1 | 'unread',
): SessionItem | null {
  if (users.length === 0) return null;
  const at = users.findIndex((u) => u.session_id === openId);
  if (move === 'unread') {
    for (let i = 1; i <= users.length; i += 1) {
      const u = users[(Math.max(at, -1) + i + users.length) % users.length]!;
      if (u.un_read_count > 0 && u.session_id !== openId) return u;
    }
    return null;
  }
  if (at === -1) return move === 1 ? users[0]! : users[users.length - 1]!;
  return users[at + move] ?? null;
}

/**
 * The console's keyboard: Alt+↓ / Alt+↑ the next or previous chat of the list, Alt+Shift+↓ the
 * next unread one, R the composer, ? the list of shortcuts (Ctrl/⌘+K, search, is the search
 * button's). None fires while the operator types in a field or a dialog is open.
 * Answers whether the help is open, and its setter.
 */
export function useConsoleShortcuts(): [boolean, (open: boolean) => void] {
  const qc = useQueryClient();
  const selectUser = useSelectUser();
  const [help, setHelp] = useState(false);

  useWindowEvent('keydown', (e) => {
    if (e.defaultPrevented || isTyping(e) || dialogOpen()) return;
    const { selectedGroup, userTimeType, reply, labelFilter, selectedUser } = consoleStore.get();
    if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      const key = sessionListQuery(
        selectedGroup?.group_id ?? 0,
        userTimeType,
        reply,
        labelFilter,
      ).queryKey;
      const data = qc.getQueryData<InfiniteData<SessionPage>>(key);
      const users = data?.pages.flatMap((p) => p.account_list) ?? [];
      const move = e.shiftKey ? 'unread' : e.key === 'ArrowDown' ? 1 : -1;
      const next = pickChat(users, selectedUser?.session_id ?? null, move);
      e.preventDefault();
      if (next) selectUser(next);
      return;
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === '?') {
      e.preventDefault();
      setHelp(true);
    } else if (e.key === 'r' || e.key === 'R') {
      if (focusComposer()) e.preventDefault();
      else if (selectedUser) {
        // The chat is open but its composer is still being built: it takes the focus once there.
        e.preventDefault();
        requestComposerFocus();
      }
    }
  });
  return [help, setHelp];
}
