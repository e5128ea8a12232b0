import { useState } from 'react';
import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { sentRoundTripQuery } from '../api/translation-api';
import { RoundTripFlags } from './round-trip-flags';
import type { DisplayMessage } from '../../messages/api/merge-messages';
import { lookupTranslation } from '../translation-index';
import { useIsPending } from '../translation-pending.store';
import { useTranslationSettings } from '../translation.store';
import { engineName } from './engine-info';
import classes from './message-translation.module.css';

/**
 * Under a bubble: the translation of an incoming message into the operator's language (while
 * translation is on), "Translating…" while it is asked for, and for a message the operator
 * wrote in their own language (outgoing translation) what they wrote, and on demand what the
 * sent translation says back in their language (kept from the round trip before sending).
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
        {msgId !== 0 && <SentBackTranslation sessionId={m.session_id} msgId={msgId} />}
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

/** A sent reply's back-translation, asked for when the operator opens it. */
function SentBackTranslation({ sessionId, msgId }: { sessionId: number; msgId: number }) {
  const { t } = useTranslation('translation');
  const [open, setOpen] = useState(false);
  const kept = useQuery({ ...sentRoundTripQuery(sessionId, msgId), enabled: open });
  if (!open) {
    return (
      <Anchor
        component="button"
        type="button"
        size="xs"
        onClick={() => setOpen(true)}
        data-testid="message-back-translation-open"
      >
        {t('showBackTranslation')}
      </Anchor>
    );
  }
  if (!kept.data) {
    return (
      <Text size="xs" c="dimmed">
        {kept.isError ? t('messages:translationFailed') : t('translating')}
      </Text>
    );
  }
  return (
    <>
      {kept.data.translation_engine && (
        // Which engine made what the customer got, small, as under their messages.
        <Text size="10px" c="dimmed" data-testid="message-sent-translation-engine">
          {t('madeBy', { engine: engineName(kept.data.translation_engine) })}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {t('backTranslationShort')}
      </Text>
      <Text size="sm" c="dimmed" data-testid="message-back-translation">
        {kept.data.back_translation ?? t('backTranslationNone')}
      </Text>
      <RoundTripFlags flags={kept.data.flags} />
    </>
  );
}
