import { memo } from 'react';
import { ActionIcon, Group as Row, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Group } from '@parley/protocol';
import { CountBadge } from '../../../components/count-badge';
import { LazyMenu } from '../../../components/lazy-menu';
import { useGroupName } from '../../sessions/hooks/use-group-name';
import classes from './group-item.module.css';

interface Props {
  group: Group;
  active: boolean;
  onSelect: (g: Group) => void;
  onRename: (g: Group) => void;
  onDelete: (g: Group) => void;
}

export const GroupItem = memo(function GroupItem({
  group,
  active,
  onSelect,
  onRename,
  onDelete,
}: Props) {
  const { t } = useTranslation('groups');
  const name = useGroupName()(group);
  return (
    <div
      className={classes.row}
      data-testid="group-item"
      data-group-id={group.group_id}
      data-group-type={group.group_type}
      data-active={active ? 'true' : 'false'}
      data-disabled={group.disabled ? 'true' : undefined}
    >
      <UnstyledButton className={classes.main} onClick={() => onSelect(group)}>
        <Row gap={6} wrap="nowrap" justify="space-between">
          <Text
            size="sm"
            truncate
            title={name}
            data-testid="group-name"
            c={group.disabled ? 'dimmed' : undefined}
          >
            {name}
          </Text>
          <CountBadge count={group.un_read} testId="group-unread" />
        </Row>
      </UnstyledButton>
      {group.group_type === 'custom' && (
        <LazyMenu
          position="bottom-end"
          target={
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              aria-label={t('menu')}
              data-testid="group-menu"
            >
              ⋯
            </ActionIcon>
          }
          items={[
            {
              key: 'rename',
              label: t('rename'),
              onClick: () => onRename(group),
              attrs: { 'data-testid': 'group-rename' },
            },
            {
              key: 'delete',
              label: t('delete'),
              color: 'red',
              onClick: () => onDelete(group),
              attrs: { 'data-testid': 'group-delete' },
            },
          ]}
        />
      )}
    </div>
  );
});
