import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MessageQuote as Quote } from '@parley/protocol';
import classes from './message-quote.module.css';

/**
 * The quoted message above a reply (and above the composer while replying): who wrote it and
 * its words, or its kind for media without words; a retracted one as "deleted message".
 */
export function MessageQuote({
  quote,
  testId = 'message-quote',
}: {
  quote: Quote;
  testId?: string;
}) {
  const { t } = useTranslation('chat');
  const words = quote.deleted
    ? t('quote.deleted')
    : quote.preview || (quote.type === 'text' ? '' : t(`messageType.${quote.type}`));
  return (
    <div
      className={classes.quote}
      data-testid={testId}
      data-quoted-id={quote.msg_id}
      data-deleted={quote.deleted || undefined}
    >
      <Text size="xs" fw={600} c="blue" data-testid="message-quote-author">
        {quote.direction === 'out' ? t('quote.you') : t('quote.customer')}
      </Text>
      <Text
        size="xs"
        c="dimmed"
        lineClamp={2}
        fs={quote.deleted ? 'italic' : undefined}
        data-testid="message-quote-text"
      >
        {quote.type !== 'text' && !quote.deleted && quote.preview
          ? `${t(`messageType.${quote.type}`)} · ${words}`
          : words}
      </Text>
    </div>
  );
}
