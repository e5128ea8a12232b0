import { useCallback, useState, type ReactNode } from 'react';
import { Button, Group as Row, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Group } from '@parley/protocol';
import { ConfirmModal } from '../../../components/confirm-modal';
import { lazyComponent } from '../../../lib/lazy-component';
import { ApiError } from '../../../lib/api-core';
import { selectGroup, useConsole } from '../../../stores/console.store';
import { saveGroup } from '../api/group-api';
import { useGroupList } from '../../sessions/hooks/use-group-list';
import { useGroupName } from '../../sessions/hooks/use-group-name';
import { GroupItem } from './group-item';
import { groupKeys, sessionKeys } from '../../sessions/api/session-cache';

// The create/rename dialog's code is fetched when it first opens.
const GroupFormModal = lazyComponent(
  async () => (await import('./group-form-modal')).GroupFormModal,
);

type Editing = { group: Group | null } | null;

/**
 * `actions`: buttons beside "New group", handed in by the console (batch reply); `places`: what
 * the console shows above the groups (the team Queue); `onSelectGroup`: told when one is picked.
 */
export function GroupList({
  actions,
  places,
  onSelectGroup,
  placeOpen = false,
}: {
  actions?: ReactNode;
  places?: ReactNode;
  onSelectGroup?: () => void;
  /** One of `places` is shown instead of a group: no group is marked as the open one. */
  placeOpen?: boolean;
}) {
  const { t } = useTranslation('groups');
  const qc = useQueryClient();
  const groupName = useGroupName();
  const { data, isPending } = useGroupList();
  const selectedId = useConsole((s) => s.selectedGroup?.group_id ?? null);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [busy, setBusy] = useState(false);

  const onSelect = useCallback(
    (g: Group) => {
      selectGroup(g);
      onSelectGroup?.();
    },
    [onSelectGroup],
  );
  const onRename = useCallback((g: Group) => setEditing({ group: g }), []);
  const onDelete = useCallback((g: Group) => setDeleting(g), []);

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await saveGroup({ type: 'del', group_id: deleting.group_id });
      await qc.invalidateQueries({ queryKey: groupKeys.all });
      await qc.invalidateQueries({ queryKey: sessionKeys.all });
      setDeleting(null);
    } catch (err) {
      notifications.show({
        color: 'red',
        title: t('messages:groupSaveFailed'),
        message: err instanceof ApiError ? err.message : '',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs" h="100%" p="xs" data-testid="group-list">
      <Row justify="space-between" px={4}>
        <Text fw={700} size="sm">
          {t('title')}
        </Text>
        <Row gap={4}>
          {actions}
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setEditing({ group: null })}
            data-testid="group-create"
          >
            {t('create')}
          </Button>
        </Row>
      </Row>
      <ScrollArea flex={1} type="auto">
        {places}
        {isPending &&
          Array.from({ length: 5 }, (_, i) => <Skeleton key={i} h={32} mb={6} radius="sm" />)}
        {data?.group_list.map((g) => (
          <GroupItem
            key={g.group_id}
            group={g}
            active={!placeOpen && g.group_id === selectedId}
            onSelect={onSelect}
            onRename={onRename}
            onDelete={onDelete}
          />
        ))}
      </ScrollArea>
      {editing && <GroupFormModal group={editing.group} onClose={() => setEditing(null)} />}
      <ConfirmModal
        opened={deleting !== null}
        title={t('deleteTitle')}
        message={deleting ? t('deleteConfirm', { name: groupName(deleting) }) : ''}
        confirmLabel={t('delete')}
        danger
        loading={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
