import { useCallback, useEffect, useState, type ComponentProps } from 'react';
import { Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { PagedVirtualList } from '../../components/paged-virtual-list';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { useContextMenu } from '../../components/use-context-menu';
import { useLongPress } from '../../components/use-long-press';
import { markFirstScreenShown } from '../../lib/first-screen';
import { lazyComponent } from '../../lib/lazy-component';
import { useOpenedOnce } from '../../lib/use-opened-once';
import { setGroupsDrawer, useConsole } from '../../stores/console.store';
import { useConsoleWidth } from './use-console-width';
import { templateGreeting } from '../channels';
import { AddChatButton } from '../../features/add-chat/components/add-chat-button';
import { ReadButton } from '../../features/session-actions/components/read-button';
import { useSelectUser } from '../../features/sessions/hooks/use-select-user';
import { useMutedChats } from '../../features/sessions/api/muted-chats';
import { useSessionList } from '../../features/sessions/hooks/use-session-list';
import { TimeTabs } from '../../features/sessions/components/time-tabs';
import { UserItem } from '../../features/sessions/components/user-item';
import { UserListEmpty } from '../../features/sessions/components/user-list-empty';
import { useConsoleWarmUp } from './use-console-warm-up';

// The right-click menu's code is fetched at the first right-click, with the team's items in it
// (Hand over…, Back to queue): Mantine's Menu is not part of the first screen.
const UserContextMenu = lazyComponent(async () => {
  const [{ UserContextMenu: Menu }, { TeamActionItems }] = await Promise.all([
    import('../../features/session-actions/components/user-context-menu'),
    import('../../features/team/components/team-chat-bar'),
  ]);
  return function UserContextMenuWithTeam(props: Omit<ComponentProps<typeof Menu>, 'Extra'>) {
    return <Menu {...props} Extra={TeamActionItems} />;
  };
});

export function UserList() {
  const { t, i18n } = useTranslation('chat');
  const { users, total, groupId, isPending, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useSessionList();
  const selectedId = useConsole((s) => s.selectedUser?.session_id ?? null);
  const onSelect = useSelectUser();
  const muted = useMutedChats();
  const menu = useContextMenu<SessionItem>();
  const openMenu = menu.open;
  const press = useLongPress(menu.openAt);
  const menuMounted = useOpenedOnce(menu.state !== null);
  // Rows in the DOM (the virtual list renders them after measuring, not with the data).
  const [rowsShown, setRowsShown] = useState(false);
  const onRowsRendered = useCallback((count: number) => {
    if (count > 0) setRowsShown(true);
  }, []);
  // The first screen is up: its first rows, or its list shown empty (lib/first-screen.ts).
  const listShownEmpty = !isPending && users.length === 0;
  useEffect(() => {
    if (rowsShown || listShownEmpty) markFirstScreenShown();
  }, [rowsShown, listShownEmpty]);
  useConsoleWarmUp(rowsShown, i18n.language);

  const renderItem = useCallback(
    (user: SessionItem) => (
      <UserItem
        user={user}
        active={user.session_id === selectedId}
        muted={muted.has(user.session_id)}
        onSelect={onSelect}
        onContextMenu={openMenu}
        longPress={press}
      />
    ),
    [selectedId, muted, onSelect, openMenu, press],
  );

  const addChat = (
    <AddChatButton testId="user-list-add" variant="filled" templateGreeting={templateGreeting} />
  );
  // No group chosen and the groups folded into the drawer: "on the left" is nowhere to be seen.
  const folded = useConsoleWidth() !== 'wide';
  const showGroups = folded ? (
    <Button size="sm" onClick={() => setGroupsDrawer(true)} data-testid="user-list-show-groups">
      {t('userListEmpty.showGroups')}
    </Button>
  ) : undefined;
  return (
    <Stack gap={0} h="100%">
      <TimeTabs />
      <Group justify="space-between" gap={4} px="sm" pb={4} wrap="nowrap">
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {groupId ? t('userCount', { count: total }) : ''}
        </Text>
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          {groupId > 0 && <ReadButton groupId={groupId} testId="group-read" />}
          <AddChatButton templateGreeting={templateGreeting} />
        </Group>
      </Group>
      <div style={{ flex: 1, minHeight: 0 }} data-testid="user-list">
        {!groupId ? (
          <UserListEmpty addChat={addChat} showGroups={showGroups} />
        ) : isPending ? (
          <Center h="100%">
            <Loader size="sm" />
          </Center>
        ) : users.length === 0 ? (
          <UserListEmpty addChat={addChat} />
        ) : (
          <PagedVirtualList
            items={users}
            itemKey={(u) => u.session_id}
            renderItem={renderItem}
            hasNextPage={hasNextPage}
            isFetchingNextPage={isFetchingNextPage}
            fetchNextPage={fetchNextPage}
            onRowsRendered={onRowsRendered}
          />
        )}
      </div>
      {menuMounted && <UserContextMenu state={menu.state} onClose={menu.close} />}
    </Stack>
  );
}
