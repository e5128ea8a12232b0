import { Badge, Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TeamQueue } from '@parley/protocol';
import { EmptyState } from '../../../components/empty-state';
import { useNow, useTeamQueues } from '../hooks/use-team-queues';
import { useWaitText } from '../hooks/use-wait-text';
import { useTake } from '../hooks/use-team-actions';
import { usePresenceReporter } from '../hooks/use-presence-reporter';
import { PresenceLine } from './presence-line';
import { QueuedMessages } from './queued-messages';
import { TeamNotes } from './team-notes';

/**
 * A queued chat read before taking it: who, since when, its messages (read-only: no composer,
 * the chat is not the seat's until taken), who else is looking, and the team's notes. Take
 * makes it the seat's and opens it.
 */
export function QueuedChatPane({ sessionId }: { sessionId: number }) {
  const teams = useTeamQueues();
  const team = teams.find((q) => q.chats.some((c) => c.session_id === sessionId));
  const chat = team?.chats.find((c) => c.session_id === sessionId);
  if (!team || !chat) return <QueuedChatGone />;
  return <QueuedChat key={sessionId} team={team} chat={chat} />;
}

function QueuedChatGone() {
  const { t } = useTranslation('team');
  return <EmptyState testId="queued-chat-gone" title={t('goneTitle')} text={t('goneText')} />;
}

function QueuedChat({ team, chat }: { team: TeamQueue; chat: TeamQueue['chats'][number] }) {
  const sessionId = chat.session_id;
  const { t } = useTranslation('team');
  const now = useNow();
  const waitText = useWaitText();
  const take = useTake();
  // The other members see "viewing" (and "typing" while a note is written) while it is open.
  const typing = usePresenceReporter(sessionId);
  return (
    <Stack h="100%" gap={0} data-testid="queued-chat" data-session-id={sessionId}>
      <Group
        px="md"
        py="xs"
        justify="space-between"
        wrap="nowrap"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <div style={{ minWidth: 0 }}>
          <Text fw={700} truncate data-testid="queued-chat-title">
            {chat.customer_name ?? chat.receiver_phone}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {t('via', { phone: team.label || team.send_phone })}
          </Text>
          <PresenceLine sessionId={sessionId} />
        </div>
        <Group gap="xs" wrap="nowrap">
          <Badge
            color="orange"
            variant="light"
            data-testid="chat-holder"
            style={{ textTransform: 'none' }}
          >
            {t('inQueue', { wait: waitText(chat.since, now) })}
          </Badge>
          <Button
            size="sm"
            onClick={() => void take(sessionId)}
            data-testid="queued-chat-take"
            title={`${t('take')} (T)`}
          >
            {t('take')}
          </Button>
        </Group>
      </Group>
      <ScrollArea flex={1} mih={0}>
        <QueuedMessages sessionId={sessionId} latestTime={chat.latest_time} />
      </ScrollArea>
      <Text size="sm" c="dimmed" px="md" py={6} data-testid="queued-chat-read-only">
        {t('readOnly')}
      </Text>
      <TeamNotes sessionId={sessionId} onTyping={typing} />
    </Stack>
  );
}
