import { DEFAULT_USER_TIME_TYPE, type Group, type SessionItem } from '@parley/protocol';
import { createStore, useStore } from '../lib/create-store';
import { readItem, readReply, removeItem, writeItem, type TagsViewEntry } from '../lib/storage';
import { onLogout } from '../lib/login-session';

export type UserTimeType = 1 | 2;

export interface ConsoleState {
  selectedGroup: Group | null;
  selectedUser: SessionItem | null;
  userTimeType: UserTimeType;
  reply: 0 | 1;
  /** The chat list's label filter (issue 35): a label's id, 0 for none. */
  labelFilter: number;
  tagsView: TagsViewEntry[];
  /** The chat a link named is not (or no longer) one of the seat's: the pane says so. */
  missingChat: number | null;
  /** The groups drawer of a narrow console is open. */
  groupsDrawer: boolean;
}

function initialState(): ConsoleState {
  return {
    selectedGroup: readItem('selectedGroup'),
    selectedUser: null,
    userTimeType: DEFAULT_USER_TIME_TYPE,
    reply: readReply(),
    labelFilter: 0,
    tagsView: readItem('tagsView') ?? [],
    missingChat: null,
    groupsDrawer: false,
  };
}

export const consoleStore = createStore<ConsoleState>(initialState());
onLogout(() => consoleStore.set(initialState()));

export function useConsole<S>(select: (s: ConsoleState) => S): S {
  return useStore(consoleStore, select);
}

const TAGS_MAX = 8;

/** Changing the group clears the selected user (spec section 4). */
export function selectGroup(group: Group | null): void {
  if (group) writeItem('selectedGroup', group);
  else removeItem('selectedGroup');
  consoleStore.set((s) => ({
    ...s,
    selectedGroup: group,
    selectedUser: s.selectedGroup?.group_id === group?.group_id ? s.selectedUser : null,
  }));
}

/** Keeps the stored copy of the selected group in step with the refreshed list. */
export function refreshSelectedGroup(group: Group): void {
  writeItem('selectedGroup', group);
  consoleStore.set((s) => ({ ...s, selectedGroup: group }));
}

export function selectUser(user: SessionItem | null): void {
  consoleStore.set((s) => {
    if (!user) return { ...s, selectedUser: null, missingChat: null };
    const entry: TagsViewEntry = { ...user, un_read_count: 0 };
    const tagsView = [entry, ...s.tagsView.filter((t) => t.session_id !== user.session_id)].slice(
      0,
      TAGS_MAX,
    );
    writeItem('tagsView', tagsView);
    return { ...s, selectedUser: user, tagsView, missingChat: null };
  });
}

/** A chat's link named a chat that is not the seat's (or was removed): nothing is open. */
export function showMissingChat(sessionId: number): void {
  consoleStore.set((s) => ({ ...s, selectedUser: null, missingChat: sessionId }));
}

export function setGroupsDrawer(groupsDrawer: boolean): void {
  consoleStore.set((s) => ({ ...s, groupsDrawer }));
}

export function removeTag(sessionId: number): void {
  consoleStore.set((s) => {
    const tagsView = s.tagsView.filter((t) => t.session_id !== sessionId);
    writeItem('tagsView', tagsView);
    return { ...s, tagsView };
  });
}

/** A chat changed (pinned, moved, blocked...): its tag keeps opening it as it now is. */
export function refreshTag(user: SessionItem): void {
  consoleStore.set((s) => {
    if (!s.tagsView.some((t) => t.session_id === user.session_id)) return s;
    const tagsView = s.tagsView.map((t) =>
      t.session_id === user.session_id ? { ...user, un_read_count: 0 } : t,
    );
    writeItem('tagsView', tagsView);
    return { ...s, tagsView };
  });
}

export function setUserTimeType(userTimeType: UserTimeType): void {
  consoleStore.set((s) => ({ ...s, userTimeType }));
}

export function setReply(reply: 0 | 1): void {
  writeItem('reply', reply);
  consoleStore.set((s) => ({ ...s, reply }));
}

export function setLabelFilter(labelFilter: number): void {
  consoleStore.set((s) => ({ ...s, labelFilter }));
}

/** The selected group vanished from the refreshed list: clear it and the user list. */
export function clearSelection(): void {
  removeItem('selectedGroup');
  consoleStore.set((s) => ({ ...s, selectedGroup: null, selectedUser: null }));
}

/** The refreshed user list changed the selected chat in more than its volatile fields. */
export function refreshSelectedUser(user: SessionItem): void {
  consoleStore.set((s) =>
    s.selectedUser?.session_id === user.session_id ? { ...s, selectedUser: user } : s,
  );
}
