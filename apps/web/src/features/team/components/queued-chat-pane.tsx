import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { useNow, useTeamQueues } from '../hooks/use-team-queues';
import { useWaitText } from '../hooks/use-wait-text';
import { useTake } from '../hooks/use-team-actions';
import { TeamNotes } from './team-notes';

/**
 * A queued chat looked at before taking it: who, since when, the last message and the team's
 * notes. Its messages are the holder's to read: Take opens the chat itself.
 */
export function QueuedChatPane({ sessionId }: { sessionId: number }) {
  const { t } = useTranslation('team');
  const teams = useTeamQueues();
  const now = useNow();
  const waitText = useWaitText();
  const take = useTake();
  const team = teams.find((q) => q.chats.some((c) => c.session_id === sessionId));
  const chat = team?.chats.find((c) => c.session_id === sessionId);
  if (!team || !chat) {
    return <EmptyState testId="queued-chat-gone" title={t('goneTitle')} text={t('goneText')} />;
  }
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
            size="xs"
            onClick={() => void take(sessionId)}
            data-testid="queued-chat-take"
            title={`${t('take')} (T)`}
          >
            {t('take')}
          </Button>
        </Group>
      </Group>
      <Stack p="md" gap="sm" flex={1} mih={0}>
        {chat.last_message && (
          <Paper withBorder p="sm" radius="md" maw={480}>
            <Text size="xs" c="dimmed">
              {t('lastMessage')}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="queued-chat-last">
              {chat.last_message.preview}
            </Text>
          </Paper>
        )}
        <Text size="sm" c="dimmed">
          {t('takeToRead')}
        </Text>
      </Stack>
      <TeamNotes sessionId={sessionId} />
    </Stack>
  );
}
