import { useTranslation } from 'react-i18next';
import type { SandboxEntry } from '@parley/protocol';
import { QuoteBlock } from '../../../components/quote-block';

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
  return (
    <QuoteBlock
      quote={quote}
      labels={{
        author: quote.direction === 'in' ? t('quoteYou') : t('quoteOperator'),
        kind: t(`kind.${quote.type}`),
        deleted: t('quoteDeleted'),
      }}
      color="green"
      testId={testId}
      textTestId="sandbox-quote-text"
    />
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
