import type { QueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '@parley/protocol';
import { consoleStore } from '../../stores/console.store';
import { languagesQuery } from './api/translation-api';
import { applyCustomerLanguage } from './customer-language-cache';
import { translateIncoming, translatableMessage } from './translate-incoming';
import { showTranslationNotice, showTranslationProblem } from './translation-notice';
import { showUnserved } from './unserved-pairs.store';

/** Whether the engine detects languages; asked once and cached (false when it cannot tell). */
async function engineDetects(qc: QueryClient): Promise<boolean> {
  const langs = await qc.ensureQueryData(languagesQuery).catch(() => null);
  return langs?.auto_detect ?? false;
}

/** Mode single: the context menu's Translate puts the translation under that message. */
export async function translateOne(qc: QueryClient, m: ChatMessage): Promise<void> {
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
