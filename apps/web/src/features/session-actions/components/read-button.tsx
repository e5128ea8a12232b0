import { useState } from 'react';
import { ActionIcon, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useGroupList } from '../../sessions/hooks/use-group-list';
import { useGroupName } from '../../sessions/hooks/use-group-name';
import { useOneClickRead } from '../hooks/use-one-click-read';
import { LineIcon } from '../../../components/line-icon';

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
  const label = group ? t('readGroup') : t('readAll');

  return (
    <>
      {/* An icon with its name as tooltip: the label is long in some languages and sits in tight
          rows (the header, above the user list). */}
      <Tooltip label={label} withArrow>
        <ActionIcon
          size="md"
          variant="subtle"
          aria-label={label}
          onClick={() => setAsking(true)}
          data-testid={testId}
        >
          <ReadAllIcon />
        </ActionIcon>
      </Tooltip>
      <ConfirmModal
        opened={asking}
        title={label}
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

/** A double check mark: what a read message shows in most chat apps. */
function ReadAllIcon() {
  return (
    <LineIcon size={18}>
      <path d="M2 12.5l4.5 4.5L15 8.5" />
      <path d="M11 16l1 1 8.5-8.5" />
    </LineIcon>
  );
}
