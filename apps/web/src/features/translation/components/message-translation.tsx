import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DisplayMessage } from '../../messages/api/merge-messages';
import { lookupTranslation } from '../translation-index';
import { useIsPending } from '../translation-pending.store';
import { useTranslationSettings } from '../translation.store';
import { engineName } from './engine-info';
import classes from './message-translation.module.css';

/**
 * Under a bubble: the translation of an incoming message into the operator's language (while
 * translation is on), "Translating…" while it is asked for, and for a message the operator
 * wrote in their own language (outgoing translation) what they wrote.
 */
export function MessageTranslation({ message: m }: { message: DisplayMessage }) {
  const { t } = useTranslation('translation');
  const msgId = 'isLocalInsert' in m ? 0 : m.msg_id;
  const enabled = useTranslationSettings((s) => s.isEnable);
  const entry = useTranslationSettings((s) =>
    lookupTranslation(s.hisTranslateMsg, m.session_id, msgId, s.targetLanguage),
  );
  const text = entry?.text;
  const pending = useIsPending(m.session_id, msgId);
  if (m.deleted) return null;

  if (m.original_content) {
    return (
      <div className={classes.translation}>
        <Text size="xs" c="dimmed">
          {t('original')}
        </Text>
        <Text size="sm" c="dimmed" data-testid="message-original">
          {m.original_content}
        </Text>
      </div>
    );
  }
  if (!enabled || msgId === 0) return null;
  if (text !== undefined) {
    return (
      <div className={classes.translation}>
        <Text size="sm" className={classes.text} data-testid="message-translation">
          {text}
        </Text>
        {entry?.engine && (
          // Which engine made it, small: the operator can tell DeepL's words from Apertium's.
          <Text size="10px" c="dimmed" data-testid="message-translation-engine">
            {t('madeBy', { engine: engineName(entry.engine) })}
          </Text>
        )}
      </div>
    );
  }
  return pending ? (
    <Text size="xs" c="dimmed" className={classes.translation} data-testid="message-translating">
      {t('translating')}
    </Text>
  ) : null;
}
