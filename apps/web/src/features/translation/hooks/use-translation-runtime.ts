import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '@parley/protocol';
import { consoleStore } from '../../../stores/console.store';
import {
  registerMessageTranslator,
  registerTranslationReader,
} from '../../../stores/message-translator';
import { lookupTranslation } from '../translation-index';
import { languagesQuery } from '../api/translation-api';
import { applyCustomerLanguage } from '../customer-language-cache';
import { translateIncoming, translatableMessage } from '../translate-incoming';
import { showTranslationNotice, showTranslationProblem } from '../translation-notice';
import { translation, useTranslationSettings } from '../translation.store';
import { showUnserved } from '../unserved-pairs.store';

const PRUNE_EVERY_MS = 60_000;

/** Whether the engine detects languages; asked once and cached (false when it cannot tell). */
export async function engineDetects(qc: QueryClient): Promise<boolean> {
  const langs = await qc.ensureQueryData(languagesQuery).catch(() => null);
  return langs?.auto_detect ?? false;
}

/** Mode single: the context menu's Translate puts the translation under that message. */
async function translateOne(qc: QueryClient, m: ChatMessage): Promise<void> {
  const message = translatableMessage(m, false);
  if (!message) return showTranslationNotice('nothingToTranslate');
  const user = consoleStore.get().selectedUser;
  const result = await translateIncoming({
    sessionId: m.session_id,
    customerLanguage: user?.session_id === m.session_id ? user.customer_language : null,
    messages: [message],
    autoDetect: await engineDetects(qc),
    force: true,
  });
  if (result.kind === 'failed') showTranslationProblem(result.problem);
  // The chat's notice says it (shown again if the operator had closed it).
  else if (result.kind === 'unserved') showUnserved(m.session_id);
  else if (result.kind === 'same_language') showTranslationNotice('sameLanguage');
  else if (result.kind === 'done') applyCustomerLanguage(qc, m.session_id, result.customerLanguage);
}

/**
 * The translation feature's part of the console: the context menu's translator, the engine's
 * languages fetched while translation is on, and expired history dropped now and then.
 */
export function useTranslationRuntime(): void {
  const qc = useQueryClient();
  const enabled = useTranslationSettings((s) => s.isEnable);
  useQuery({ ...languagesQuery, enabled });

  useEffect(() => registerMessageTranslator((m) => void translateOne(qc, m)), [qc]);
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
