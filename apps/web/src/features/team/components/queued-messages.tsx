import { Box, Loader, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@parley/protocol';
import { formatMessageTime } from '../../../lib/format-time';
import { teamChatRecordQuery } from '../api/team-api';

/**
 * A queued chat's messages, read-only (no composer: the chat is not the seat's until taken).
 * Each as text, whatever it holds (never markup); a media message by its kind and caption.
 */
export function QueuedMessages({
  sessionId,
  latestTime,
}: {
  sessionId: number;
  latestTime: number;
}) {
  const { t } = useTranslation('team');
  const { data, isError, isPending } = useQuery(teamChatRecordQuery(sessionId, latestTime));
  if (isPending) return <Loader size="sm" m="md" />;
  if (isError) {
    return (
      <Text size="sm" c="red" p="md">
        {t('messagesFailed')}
      </Text>
    );
  }
  if (data.list.length === 0) {
    return (
      <Text size="sm" c="dimmed" p="md">
        {t('noMessages')}
      </Text>
    );
  }
  return (
    <Stack gap={6} p="md" data-testid="queued-messages" aria-label={t('readOnly')}>
      {data.list.map((m) => (
        <QueuedMessage key={m.msg_id} message={m} />
      ))}
    </Stack>
  );
}

function QueuedMessage({ message }: { message: ChatMessage }) {
  const { t, i18n } = useTranslation('realtime');
  const mine = message.direction === 'out';
  return (
    <Box style={{ alignSelf: mine ? 'flex-end' : 'flex-start', maxWidth: '75%' }}>
      <Paper
        withBorder
        p="xs"
        radius="md"
        bg={mine ? 'var(--mantine-color-blue-light)' : undefined}
        data-testid="queued-message"
        data-direction={message.direction}
      >
        {message.type !== 'text' && (
          <Text size="xs" c="dimmed">
            {t(`media.${message.type}`)}
          </Text>
        )}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {message.content}
        </Text>
        <Text size="xs" c="dimmed" ta="right">
          {formatMessageTime(message.created_at, i18n.language)}
        </Text>
      </Paper>
    </Box>
  );
}
