import { Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SandboxEntry } from '@parley/protocol';

type Quote = NonNullable<SandboxEntry['quote']>;

/** The quoted message above a reply, as the customer sees it ("You": their own message). */
export function SandboxQuote({
  quote,
  testId = 'sandbox-quote',
}: {
  quote: Quote;
  testId?: string;
}) {
  const { t } = useTranslation('sandbox');
  const words = quote.deleted
    ? t('quoteDeleted')
    : quote.preview || (quote.type === 'text' ? '' : t(`kind.${quote.type}`));
  return (
    <Box
      data-testid={testId}
      data-deleted={quote.deleted || undefined}
      mb={4}
      px={8}
      py={2}
      style={{
        borderInlineStart: '3px solid var(--mantine-color-green-filled)',
        background: 'light-dark(rgba(0, 0, 0, 0.04), rgba(255, 255, 255, 0.06))',
        borderRadius: 4,
      }}
    >
      <Text size="xs" fw={600} c="green">
        {quote.direction === 'in' ? t('quoteYou') : t('quoteOperator')}
      </Text>
      <Text
        size="xs"
        c="dimmed"
        lineClamp={2}
        fs={quote.deleted ? 'italic' : undefined}
        data-testid="sandbox-quote-text"
      >
        {words}
      </Text>
    </Box>
  );
}

/** What a reply to `entry` will show, before the server has it. */
export function quoteOfEntry(entry: SandboxEntry): Quote {
  return {
    id: entry.id,
    direction: entry.direction,
    type: entry.type,
    preview: (entry.content || entry.file_name || '').replace(/\s+/g, ' ').trim().slice(0, 100),
    deleted: false,
  };
}
