import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { SessionItem } from '@parley/protocol';
import { consoleStore, selectUser } from '../../../stores/console.store';
import { applyMuted, muteChat } from '../api/muted-chats';
import { applySessionRemoved, applySessionUpdate, refreshLists } from '../api/session-cache';
import {
  blockOrUnblock,
  deleteSession,
  markUnread,
  moveSession,
  remarkKey,
  setRemark,
  setTop,
} from '../api/session-actions-api';

/**
 * The chat actions, each followed by the cache updates that show its result at once. Errors
 * reach the caller (most calls also toast the translated message through the request layer).
 */
export function useSessionActions() {
  const qc = useQueryClient();
  return useMemo(
    () => ({
      async setTop(user: SessionItem, isTop: boolean) {
        applySessionUpdate(qc, await setTop(user.session_id, isTop));
      },
      async setBlocked(user: SessionItem, blocked: boolean) {
        const type = blocked ? 'block' : 'unblock';
        applySessionUpdate(qc, await blockOrUnblock({ type, session_id: user.session_id }));
      },
      /**
       * Mark unread: the badge shows 1 and the group's, the time tab's and the total counts
       * follow (refetched; the push brings them too). The chat, if open, closes: opening it
       * again reads it as usual.
       */
      async markUnread(user: SessionItem) {
        const updated = await markUnread(user.session_id);
        if (consoleStore.get().selectedUser?.session_id === user.session_id) selectUser(null);
        applySessionUpdate(qc, updated);
        refreshLists(qc, 'groups');
      },
      /** Mute or unmute: the row's mark follows (the seat's other consoles get session.muted). */
      async setMuted(user: SessionItem, muted: boolean) {
        const saved = await muteChat(user.session_id, muted);
        applyMuted(qc, saved.session_id, saved.muted);
      },
      async move(user: SessionItem, groupId: number) {
        applySessionUpdate(qc, await moveSession(user.session_id, groupId));
      },
      async remove(user: SessionItem) {
        await deleteSession(user.session_id);
        applySessionRemoved(qc, user.session_id);
      },
      async setRemark(user: SessionItem, remark: string) {
        const saved = await setRemark(user.session_id, remark);
        applySessionUpdate(qc, { ...user, remark: saved.remark });
        qc.setQueryData(remarkKey(user.session_id), saved);
      },
    }),
    [qc],
  );
}

/** For handlers that start an action: its error was already shown (toast or field). */
export function run(action: Promise<unknown>): void {
  action.catch(() => undefined);
}
