import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { Group, SessionItem } from '@parley/protocol';
import { cachedGroupLists, groupListQuery } from '../api/session-cache';
import { consoleStore, selectGroup, setUserTimeType } from '../../../stores/console.store';
import { clearJump, jumpToMessage } from '../../../stores/chat-jump.store';
import { useSelectUser } from './use-select-user';

/** The chat's group from the cached group lists, else from a fresh one. */
async function findGroup(
  qc: ReturnType<typeof useQueryClient>,
  groupId: number,
): Promise<Group | undefined> {
  const cached = cachedGroupLists(qc)
    .flatMap(([, d]) => d?.group_list ?? [])
    .find((g) => g.group_id === groupId);
  if (cached) return cached;
  const fresh = await qc.fetchQuery(groupListQuery(consoleStore.get().reply));
  return fresh.group_list.find((g) => g.group_id === groupId);
}

/**
 * Opens a chat from outside the user list (search results, address book): selects its group,
 * its time tab and the chat itself on the chat console, and with `msgId` opens it at that
 * message instead of at its newest page.
 */
export function useOpenChat(): (session: SessionItem, msgId?: number) => Promise<void> {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const selectUser = useSelectUser();
  return useCallback(
    async (session: SessionItem, msgId?: number) => {
      const group = await findGroup(qc, session.group_id);
      if (group && consoleStore.get().selectedGroup?.group_id !== group.group_id) {
        selectGroup(group);
      }
      setUserTimeType(session.user_time_type);
      selectUser(session);
      // At the message, or at the newest ones even if the chat was open at a search hit.
      if (msgId !== undefined) jumpToMessage(session.session_id, msgId);
      else clearJump();
      if (!window.location.pathname.startsWith('/home/chat')) {
        await navigate(`/home/chat?chat=${session.session_id}`);
      }
    },
    [qc, navigate, selectUser],
  );
}
