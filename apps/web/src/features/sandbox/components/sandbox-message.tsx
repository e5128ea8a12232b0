import { Anchor, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SandboxEntry } from '@parley/protocol';
import { SandboxMedia } from './sandbox-media';
import { SandboxQuote } from './sandbox-quote';

/**
 * One message as the customer sees it: theirs on the right, the operator's on the left; a
 * reply shows its quote above it; "Reply" quotes it in the next message.
 */
export function SandboxMessage({
  entry,
  onReply,
}: {
  entry: SandboxEntry;
  onReply?: (entry: SandboxEntry) => void;
}) {
  const { t } = useTranslation('sandbox');
  const mine = entry.direction === 'in';
  return (
    <Paper
      data-testid="sandbox-message"
      data-direction={entry.direction}
      data-type={entry.type}
      data-deleted={entry.deleted ? 'true' : 'false'}
      p="xs"
      maw="75%"
      withBorder
      bg={mine ? 'var(--mantine-color-green-light)' : 'var(--mantine-color-body)'}
      style={{ alignSelf: mine ? 'flex-end' : 'flex-start' }}
    >
      {entry.quote && <SandboxQuote quote={entry.quote} />}
      {entry.deleted ? (
        <Text size="sm" c="dimmed" fs="italic" data-testid="sandbox-deleted">
          {t('deleted')}
        </Text>
      ) : (
        <>
          {entry.media_url && <SandboxMedia entry={entry} url={entry.media_url} />}
          {entry.content && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="sandbox-text">
              {entry.content}
            </Text>
          )}
        </>
      )}
      {onReply && !entry.deleted && !entry.blocked && (
        <Anchor
          component="button"
          type="button"
          size="xs"
          onClick={() => onReply(entry)}
          data-testid="sandbox-reply"
        >
          {t('reply')}
        </Anchor>
      )}
      {entry.blocked && (
        <Text size="xs" c="red" data-testid="sandbox-blocked">
          {t('blocked')}
        </Text>
      )}
    </Paper>
  );
}
