import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  registerMessageTranslator,
  registerTranslationReader,
} from '../../../stores/message-translator';
import { retrying } from '../../../lib/retrying-import';
import { lookupTranslation } from '../translation-index';
import { languagesQuery } from '../api/translation-api';
import { translation, useTranslationSettings } from '../translation.store';

const PRUNE_EVERY_MS = 60_000;

/**
 * The context menu's Translate (mode single) and its notices: fetched when first used, not
 * with the console's first screen.
 */
const loadTranslateOne = retrying(async () => (await import('../translate-one')).translateOne);

/**
 * The translation feature's part of the console: the context menu's translator, the engine's
 * languages fetched while translation is on, and expired history dropped now and then.
 */
export function useTranslationRuntime(): void {
  const qc = useQueryClient();
  const enabled = useTranslationSettings((s) => s.isEnable);
  useQuery({ ...languagesQuery, enabled });

  useEffect(
    () =>
      registerMessageTranslator(
        (m) => void loadTranslateOne().then((translateOne) => translateOne(qc, m)),
      ),
    [qc],
  );
  // What "Copy with translation" copies: the translation shown under the message.
  useEffect(
    () =>
      registerTranslationReader((m) => {
        const s = translation.store.get();
        return lookupTranslation(s.hisTranslateMsg, m.session_id, m.msg_id, s.targetLanguage)?.text;
      }),
    [],
  );

  useEffect(() => {
    translation.prune();
    const timer = setInterval(() => translation.prune(), PRUNE_EVERY_MS);
    return () => clearInterval(timer);
  }, []);
}
