import { Badge, Button, Group, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TeamQueue } from '@parley/protocol';
import { EmptyState } from '../../../components/empty-state';
import { LabelChips } from '../../../components/label-chips';
import { previewQueued, useTeamView } from '../team-view.store';
import { queueSummary, useNow, useTeamQueues } from '../hooks/use-team-queues';
import { useWaitText } from '../hooks/use-wait-text';
import { useTake } from '../hooks/use-team-actions';
import classes from './team-places.module.css';

type QueuedChat = TeamQueue['chats'][number];

/** The Queue place's chats, longest waiting first, each with its Take button. */
export function QueueList() {
  const { t } = useTranslation('team');
  const teams = useTeamQueues();
  const { count } = queueSummary(teams);
  const chats = teams
    .flatMap((team) => team.chats.map((chat) => ({ chat, team })))
    .sort((a, b) => a.chat.since - b.chat.since);
  return (
    <Stack gap={0} h="100%" data-testid="queue-list">
      <Group justify="space-between" px="sm" py={8}>
        <Text fw={700} size="sm">
          {t('queue')}
        </Text>
        <Text size="xs" c="dimmed" data-testid="queue-list-count">
          {t('waiting', { count })}
        </Text>
      </Group>
      {chats.length === 0 ? (
        <EmptyState testId="queue-empty" title={t('queueEmpty')} text={t('queueEmptyText')} />
      ) : (
        <ScrollArea flex={1} type="auto">
          {chats.map(({ chat, team }) => (
            <QueueRow key={chat.session_id} chat={chat} team={team} />
          ))}
        </ScrollArea>
      )}
    </Stack>
  );
}

function QueueRow({ chat, team }: { chat: QueuedChat; team: TeamQueue }) {
  const { t } = useTranslation('team');
  const active = useTeamView((s) => s.preview === chat.session_id);
  const now = useNow();
  const waitText = useWaitText();
  const take = useTake();
  return (
    <div
      className={classes.row}
      data-testid="queue-item"
      data-session-id={chat.session_id}
      data-receiver-phone={chat.receiver_phone}
      data-active={active ? 'true' : 'false'}
    >
      <UnstyledButton
        style={{ flex: 1, minWidth: 0 }}
        onClick={() => previewQueued(chat.session_id)}
        data-testid="queue-item-open"
      >
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={600} truncate>
            {chat.customer_name ?? chat.receiver_phone}
          </Text>
          {chat.un_read_count > 0 && (
            <Badge size="xs" color="red" circle>
              {chat.un_read_count}
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed" truncate>
          {chat.last_message?.preview ?? ''}
        </Text>
        <Text size="xs" c="orange.8" truncate data-testid="queue-item-wait">
          {t('waitsSince', {
            wait: waitText(chat.since, now),
            phone: team.label || team.send_phone,
          })}
        </Text>
        <LabelChips labels={chat.labels} testId="queue-item-labels" />
      </UnstyledButton>
      <Button
        size="compact-xs"
        onClick={() => void take(chat.session_id)}
        data-testid="queue-item-take"
      >
        {t('take')}
      </Button>
    </div>
  );
}
