import { useEffect, useState } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionItem, TranslationLanguageCode } from '@parley/protocol';
import { roundTrip } from '../api/translation-api';
import { outgoingPair } from '../translation-languages';
import { useTranslationSettings } from '../translation.store';

/** The preview waits for a pause in typing. */
const PREVIEW_DELAY_MS = 400;

function outgoingQuery(
  sessionId: number,
  pair: { source: TranslationLanguageCode; target: TranslationLanguageCode },
  text: string,
) {
  return queryOptions({
    queryKey: ['translation', 'outgoing', pair.source, pair.target, text] as const,
    // The translation and what it says back in the operator's language (one engine request
    // more at most; the server's memory answers a repeated text).
    queryFn: ({ signal }) =>
      roundTrip(
        { session_id: sessionId, text, source_lang: pair.source, target_lang: pair.target },
        signal,
      ),
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Outgoing translation (beyond the spec): while the composer's toggle is on, the operator's
 * draft (in their language) is translated into the customer's and previewed with its
 * back-translation and what did not survive the round trip; sending sends the translation,
 * with what the operator wrote as original_content (the server keeps the round trip).
 */
export function useOutgoingTranslation(user: SessionItem, draft: string) {
  const qc = useQueryClient();
  const enabled = useTranslationSettings((s) => s.isEnable);
  const on = useTranslationSettings((s) => s.translateOutgoing === true);
  const source = useTranslationSettings((s) => s.sourceLanguage);
  const target = useTranslationSettings((s) => s.targetLanguage);
  const pair = outgoingPair(user.customer_language, {
    sourceLanguage: source,
    targetLanguage: target,
  });
  const active = enabled && on && pair !== null;
  const text = useDebounced(draft.trim(), PREVIEW_DELAY_MS);
  const preview = useQuery({
    ...outgoingQuery(user.session_id, pair ?? { source, target }, text),
    enabled: active && text !== '',
  });

  return {
    /** The toggle is offered (translation on, and the customer reads another language). */
    available: enabled && pair !== null,
    active,
    pair,
    preview: active && text !== '' ? preview : null,
    /** The translation of exactly this text (from the preview when it is already there). */
    async translate(value: string): Promise<string> {
      if (!pair) return value;
      return (await qc.fetchQuery(outgoingQuery(user.session_id, pair, value))).translation.text;
    },
  };
}
