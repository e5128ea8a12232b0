import { CloseButton, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MessageQuote } from '../../../features/chat/components/message-quote';
import { clearReplyTarget, useReplyTarget } from '../../../stores/reply-target.store';

/** Above the composer while replying: the quoted message, and × to write without it. */
export function ReplyingTo({ sessionId }: { sessionId: number }) {
  const { t } = useTranslation('chat');
  const quote = useReplyTarget(sessionId);
  if (!quote) return null;
  return (
    <Group gap="xs" wrap="nowrap" align="center" data-testid="composer-reply">
      <div style={{ flex: 1, minWidth: 0 }}>
        <MessageQuote quote={quote} testId="composer-quote" />
      </div>
      <CloseButton
        size="sm"
        onClick={() => clearReplyTarget(sessionId)}
        aria-label={t('quote.cancel')}
        title={t('quote.cancel')}
        data-testid="composer-reply-cancel"
      />
    </Group>
  );
}
