import { useTranslation } from 'react-i18next';
import type { MessageQuote as Quote } from '@parley/protocol';
import { QuoteBlock } from '../../../components/quote-block';
import { jumpToMessage } from '../../../stores/chat-jump.store';

/**
 * The console's quote, in the operator's words. With `sessionId` (a reply in the list) a click
 * jumps to the quoted message: the list loads the page around it, centred and highlighted.
 */
export function MessageQuote({
  quote,
  sessionId,
  testId = 'message-quote',
}: {
  quote: Quote;
  sessionId?: number;
  testId?: string;
}) {
  const { t } = useTranslation('chat');
  return (
    <QuoteBlock
      quote={quote}
      labels={{
        author: quote.direction === 'out' ? t('quote.you') : t('quote.customer'),
        kind: t(`messageType.${quote.type}`),
        deleted: t('quote.deleted'),
        open: t('quote.open'),
      }}
      color="blue"
      testId={testId}
      textTestId="message-quote-text"
      authorTestId="message-quote-author"
      quotedId={quote.msg_id}
      onOpen={sessionId === undefined ? undefined : () => jumpToMessage(sessionId, quote.msg_id)}
    />
  );
}
