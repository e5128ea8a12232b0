import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatMessage, SessionItem } from '@parley/protocol';
import type { DisplayMessage } from '../../messages/api/merge-messages';
import { languagesQuery } from '../api/translation-api';
import { applyCustomerLanguage } from '../customer-language-cache';
import { translateIncoming, translatableMessage } from '../translate-incoming';
import { showTranslationProblem } from '../translation-notice';
import { useTranslationSettings } from '../translation.store';

/**
 * Mode auto all: the chat's loaded incoming messages are translated on entry, and each new
 * one as it reaches the chat's cached record (however it got there: a refetch or a pushed
 * event). Leaving the chat (or changing the languages or mode) aborts its requests at once;
 * answers are kept by chat and message id, so none can land in another chat.
 */
export function useAutoTranslate(user: SessionItem, messages: readonly DisplayMessage[]): void {
  const qc = useQueryClient();
  const active = useTranslationSettings((s) => s.isEnable && s.mode === 'auto_all');
  const source = useTranslationSettings((s) => s.sourceLanguage);
  const target = useTranslationSettings((s) => s.targetLanguage);
  const sessionId = user.session_id;
  const customerLanguage = user.customer_language;

  // One controller per chat visit and settings; a failure stops retrying until the next one.
  const run = useRef<{ controller: AbortController; failed: boolean } | null>(null);
  useEffect(() => {
    if (!active) return;
    const current = { controller: new AbortController(), failed: false };
    run.current = current;
    return () => {
      current.controller.abort();
      if (run.current === current) run.current = null;
    };
  }, [active, sessionId, source, target]);

  // Whether the engine detects the language decides the source; known before translating.
  const langs = useQuery({ ...languagesQuery, enabled: active });
  const settled = !langs.isPending || langs.fetchStatus === 'idle';
  const autoDetect = langs.data?.auto_detect ?? false;

  useEffect(() => {
    const current = run.current;
    if (!active || !settled || !current || current.failed) return;
    const signal = current.controller.signal;
    if (signal.aborted) return;
    const incoming = messages
      .map((m) => translatableMessage(m, true))
      .filter((m): m is ChatMessage => m !== null);
    if (incoming.length === 0) return;
    void translateIncoming({
      sessionId,
      customerLanguage,
      messages: incoming,
      autoDetect,
      signal,
    }).then((result) => {
      if (result.kind === 'failed') {
        current.failed = true;
        showTranslationProblem(result.problem);
      } else if (result.kind === 'unserved') {
        // Said once, in the chat (UnservedPairNotice), and not asked again.
        current.failed = true;
      } else if (result.kind === 'done') {
        applyCustomerLanguage(qc, sessionId, result.customerLanguage);
      }
    });
  }, [active, settled, autoDetect, messages, sessionId, customerLanguage, source, target, qc]);
}
