import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useGroupList } from '../../groups/hooks/use-group-list';
import { useGroupName } from '../../groups/hooks/use-group-name';
import { useOneClickRead } from '../hooks/use-one-click-read';

interface Props {
  /** Reads one group's chats; all chats when absent. */
  groupId?: number;
  testId: string;
}

/**
 * One-click read (the spec's oneClickRead): for all chats beside the group list's title, and
 * for the open group above its user list. Shown only while there is something unread.
 */
export function ReadButton({ groupId, testId }: Props) {
  const { t } = useTranslation('session-actions');
  const groupName = useGroupName();
  const { data } = useGroupList();
  const { read, busy } = useOneClickRead();
  const [asking, setAsking] = useState(false);
  const group = groupId === undefined ? null : data?.group_list.find((g) => g.group_id === groupId);
  const unread = groupId === undefined ? (data?.un_read_count ?? 0) : (group?.un_read ?? 0);
  if (unread <= 0 || (groupId !== undefined && !group)) return null;

  return (
    <>
      <Button
        size="compact-xs"
        variant="subtle"
        onClick={() => setAsking(true)}
        data-testid={testId}
      >
        {group ? t('readGroup') : t('readAll')}
      </Button>
      <ConfirmModal
        opened={asking}
        title={group ? t('readGroup') : t('readAll')}
        message={
          group
            ? t('readGroupConfirm', { count: unread, name: groupName(group) })
            : t('readAllConfirm', { count: unread })
        }
        loading={busy}
        testId={`${testId}-confirm`}
        onConfirm={() => void read(groupId).then((ok) => ok && setAsking(false))}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
