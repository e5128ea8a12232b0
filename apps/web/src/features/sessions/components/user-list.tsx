import { useCallback } from 'react';
import { Center, Loader, Stack, Text } from '@mantine/core';
import { Virtuoso } from 'react-virtuoso';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { useConsole } from '../../console/console.store';
import { useSelectUser } from '../hooks/use-select-user';
import { useSessionList } from '../hooks/use-session-list';
import { TimeTabs } from './time-tabs';
import { UserItem } from './user-item';

export function UserList() {
  const { t } = useTranslation('chat');
  const { users, total, groupId, isPending, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useSessionList();
  const selectedId = useConsole((s) => s.selectedUser?.session_id ?? null);
  const onSelect = useSelectUser();

  const endReached = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const itemContent = useCallback(
    (_: number, user: SessionItem) => (
      <UserItem user={user} active={user.session_id === selectedId} onSelect={onSelect} />
    ),
    [selectedId, onSelect],
  );

  return (
    <Stack gap={0} h="100%">
      <TimeTabs />
      <Text size="xs" c="dimmed" px="sm" pb={4}>
        {groupId ? t('userCount', { count: total }) : ''}
      </Text>
      <div style={{ flex: 1, minHeight: 0 }} data-testid="user-list">
        {!groupId ? (
          <Center h="100%">
            <Text c="dimmed" size="sm">
              {t('selectGroup')}
            </Text>
          </Center>
        ) : isPending ? (
          <Center h="100%">
            <Loader size="sm" />
          </Center>
        ) : users.length === 0 ? (
          <Center h="100%">
            <Text c="dimmed" size="sm">
              {t('noUsers')}
            </Text>
          </Center>
        ) : (
          <Virtuoso
            style={{ height: '100%' }}
            data={users}
            computeItemKey={(_, u) => u.session_id}
            itemContent={itemContent}
            endReached={endReached}
            increaseViewportBy={200}
            components={{
              Footer: () =>
                isFetchingNextPage ? (
                  <Center p="xs">
                    <Loader size="xs" />
                  </Center>
                ) : null,
            }}
          />
        )}
      </div>
    </Stack>
  );
}
