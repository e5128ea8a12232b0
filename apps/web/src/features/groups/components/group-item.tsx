import { memo } from 'react';
import { ActionIcon, Group as Row, Menu, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Group } from '@parley/protocol';
import { CountBadge } from '../../../components/count-badge';
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
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              aria-label={t('menu')}
              data-testid="group-menu"
            >
              ⋯
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => onRename(group)} data-testid="group-rename">
              {t('rename')}
            </Menu.Item>
            <Menu.Item color="red" onClick={() => onDelete(group)} data-testid="group-delete">
              {t('delete')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
    </div>
  );
});
