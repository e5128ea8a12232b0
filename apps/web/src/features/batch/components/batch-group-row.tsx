import { useState } from 'react';
import { ActionIcon, Checkbox, Group as Row, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Group } from '@parley/protocol';
import { useGroupName } from '../../sessions/hooks/use-group-name';
import { groupChatCountQuery } from '../api/batch-queries';
import type { useBatchSelection } from '../hooks/use-batch-selection';
import { BatchGroupChats } from './batch-group-chats';

interface Props {
  group: Group;
  /** The search: a group shows when its name matches, or with its chats that match. */
  query: string;
  selection: ReturnType<typeof useBatchSelection>;
}

export function BatchGroupRow({ group, query, selection }: Props) {
  const { t } = useTranslation('batch');
  const name = useGroupName()(group);
  const [open, setOpen] = useState(false);
  const id = group.group_id;
  const total = useQuery(groupChatCountQuery(id, '')).data;
  const nameMatches = !query || name.toLocaleLowerCase().includes(query.toLocaleLowerCase());
  const matching = useQuery({ ...groupChatCountQuery(id, query), enabled: !nameMatches }).data;
  if (!nameMatches && matching === 0) return null;

  const whole = selection.selection.groups.has(id);
  const expanded = open || (!nameMatches && (matching ?? 0) > 0);
  return (
    <div data-testid="batch-group" data-group-id={id}>
      <Row gap={4} wrap="nowrap" py={4} px={4}>
        <ActionIcon
          variant="subtle"
          size="sm"
          onClick={() => setOpen((o) => !o)}
          aria-label={expanded ? t('collapse') : t('expand')}
          aria-expanded={expanded}
          data-testid="batch-group-toggle"
        >
          <span aria-hidden style={{ transform: `rotate(${expanded ? 90 : 0}deg)` }}>
            ▸
          </span>
        </ActionIcon>
        <Checkbox
          flex={1}
          checked={whole}
          disabled={total === undefined || total === 0}
          onChange={() => selection.toggleGroup(id, total ?? 0)}
          label={
            <Text size="sm" fw={600} span>
              {name}
            </Text>
          }
          aria-label={t('wholeGroup', { name })}
          data-testid="batch-group-check"
        />
        <Text size="xs" c="dimmed" data-testid="batch-group-count">
          {total === undefined ? '' : t('chatCount', { count: total })}
        </Text>
      </Row>
      {expanded && (
        <BatchGroupChats
          groupId={id}
          keyword={nameMatches ? '' : query}
          whole={whole}
          selection={selection}
        />
      )}
    </div>
  );
}
