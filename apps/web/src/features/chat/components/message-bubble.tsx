import { memo, type ComponentType } from 'react';
import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMessageTime } from '../../../lib/format-time';
import type { DisplayMessage } from '../../messages/api/merge-messages';
import type { LocalMessage } from '../../messages/local-messages.store';
import { LocalMessageStatus } from './local-message-status';
import { MessageMedia } from './message-media';
import { MessageQuote } from './message-quote';
import { MessageReaction } from './message-reaction';
import classes from './message-bubble.module.css';

interface Props {
  message: DisplayMessage;
  onRetry: (m: LocalMessage) => void;
  /** Shown under the text (the translation), handed in by the console: a stable component. */
  Annotation?: ComponentType<{ message: DisplayMessage }>;
}

const STATUS_MARK: Record<string, string> = {
  pending: '🕓',
  waiting: '⋯',
  sent: '✓',
  delivered: '✓✓',
  read: '✓✓',
  failed: '!',
};

export const MessageBubble = memo(function MessageBubble({
  message: m,
  onRetry,
  Annotation,
}: Props) {
  const { t, i18n } = useTranslation('chat');
  const out = m.direction === 'out';
  const local = 'isLocalInsert' in m ? (m as LocalMessage) : null;
  const statusLabel = m.status === 'waiting' ? t('outbox:status') : t(`status.${m.status}`);
  const isMedia = m.type !== 'text' && !m.deleted;
  // A media message shows its media, then its caption (when it has one).
  const body = m.deleted ? t('deletedMessage') : m.content;
  return (
    <div className={classes.row} data-out={out}>
      <div
        className={classes.bubble}
        data-out={out}
        data-testid="message-item"
        data-msg-id={local ? local.client_msg_id : m.msg_id}
        data-direction={m.direction}
        data-status={m.status}
        data-local={local ? 'true' : undefined}
        data-type={m.type}
      >
        {m.quote && <MessageQuote quote={m.quote} sessionId={m.session_id} />}
        {isMedia && <MessageMedia message={m} />}
        {(!isMedia || body) && (
          <Text
            size="sm"
            className={classes.text}
            fs={m.deleted ? 'italic' : undefined}
            mt={isMedia ? 4 : undefined}
            data-testid="message-text"
          >
            {body}
          </Text>
        )}
        {Annotation && <Annotation message={m} />}
        <Group gap={6} justify="flex-end" mt={2}>
          {m.reaction && !m.deleted && <MessageReaction reaction={m.reaction} />}
          <Text size="xs" c="dimmed">
            {formatMessageTime(m.created_at, i18n.language)}
          </Text>
          {out && (
            <Text
              size="xs"
              c={m.status === 'failed' ? 'red' : m.status === 'read' ? 'blue' : 'dimmed'}
              title={statusLabel}
              aria-label={statusLabel}
            >
              {STATUS_MARK[m.status]}
            </Text>
          )}
        </Group>
        {/* A refusal the console has words for (WhatsApp's window: send a template). */}
        {!local && m.status === 'failed' && m.fail_reason && (
          <Text size="xs" c="red" ta="right" data-testid="message-fail-reason">
            {t(`failReason.${m.fail_reason}`)}
          </Text>
        )}
        {local && <LocalMessageStatus local={local} onRetry={onRetry} />}
      </div>
    </div>
  );
});
