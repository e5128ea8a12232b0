import { Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SandboxEntry } from '@parley/protocol';
import { SandboxMedia } from './sandbox-media';

/** One message as the customer sees it: theirs on the right, the operator's on the left. */
export function SandboxMessage({ entry }: { entry: SandboxEntry }) {
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
      {entry.blocked && (
        <Text size="xs" c="red" data-testid="sandbox-blocked">
          {t('blocked')}
        </Text>
      )}
    </Paper>
  );
}
