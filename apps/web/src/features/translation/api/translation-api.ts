import { queryOptions } from '@tanstack/react-query';
import {
  ERROR_CODES,
  TRANSLATION_PROBLEMS,
  type TranslationErrorData,
  type CallInput,
  type CallResponse,
  type EngineOffer,
  type TranslationLanguageCode,
} from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-core';

export type TranslateInput = CallInput<'/v1/seat/chat/translate/text_v2'>;
export type TranslateAnswer = CallResponse<'/v1/seat/chat/translate/text_v2'>;
export type EngineLanguages = CallResponse<'/v1/seat/chat/translate/languages'>;

/** Translation errors are shown by the feature itself ("Translation failed"), not as codes. */
export function translateTexts(input: TranslateInput, signal?: AbortSignal) {
  return callApi('/v1/seat/chat/translate/text_v2', input, { notify: false, signal });
}

export type RoundTripInput = CallInput<'/v1/seat/chat/translate/round_trip'>;
export type RoundTripAnswer = CallResponse<'/v1/seat/chat/translate/round_trip'>;

/** A reply into the customer's language and back, with what did not survive flagged. */
export function roundTrip(input: RoundTripInput, signal?: AbortSignal) {
  return callApi('/v1/seat/chat/translate/round_trip', input, { notify: false, signal });
}

/** The back-translation kept for a reply sent translated (the bubble, on demand). */
export function sentRoundTripQuery(sessionId: number, msgId: number) {
  return queryOptions({
    queryKey: ['translation', 'sent-round-trip', sessionId, msgId] as const,
    queryFn: ({ signal }) =>
      callApi(
        '/v1/seat/chat/translate/sent_round_trip',
        { session_id: sessionId, msg_id: msgId },
        { notify: false, signal },
      ),
    staleTime: Infinity,
  });
}

export const languagesKey = ['translation', 'languages'] as const;

/** The engine in use and the pairs it offers (the settings dialog; auto-detection). */
export const languagesQuery = queryOptions({
  queryKey: languagesKey,
  queryFn: ({ signal }) =>
    callApi('/v1/seat/chat/translate/languages', {}, { notify: false, signal }),
  staleTime: 5 * 60_000,
});

export function setCustomerLanguage(sessionId: number, language: TranslationLanguageCode | null) {
  return callApi('/v1/seat/chat/set_customer_language', {
    session_id: sessionId,
    customer_language: language,
  });
}

/** The `messages:` key of what to tell the operator about a failed translation. */
export type TranslationProblem = (typeof TRANSLATION_PROBLEMS)[number];

type ReadErrorData = Pick<TranslationErrorData, 'message' | 'offers' | 'suggested_engines'>;

/**
 * The fields of a translation failure's `data` (protocol TranslationErrorData) this console
 * reads, or null when it is not one. Checked by hand, not with the protocol's zod schema:
 * this module is on the console's first screen, and zod (~25 KB gzip) is not (issue 37).
 */
function readErrorData(data: unknown): ReadErrorData | null {
  if (typeof data !== 'object' || data === null) return null;
  const { message, offers, suggested_engines } = data as Record<string, unknown>;
  if (!TRANSLATION_PROBLEMS.includes(message as TranslationProblem)) return null;
  return {
    message: message as TranslationProblem,
    offers: Array.isArray(offers) ? (offers as ReadErrorData['offers']) : undefined,
    suggested_engines: Array.isArray(suggested_engines)
      ? suggested_engines.filter((e): e is string => typeof e === 'string')
      : undefined,
  };
}

/**
 * The server names its translation failures (protocol translationErrorData); other refusals
 * are "Translation error", an unreachable server "Translation failed". Null when there is
 * nothing to tell (an expired login has its own dialog; an abort was on purpose).
 */
export function translationProblem(err: unknown): TranslationProblem | null {
  if (err instanceof DOMException && err.name === 'AbortError') return null;
  if (!(err instanceof ApiError)) return 'translationError';
  if (err.code === ERROR_CODES.TOKEN_EXPIRED) return null;
  const data = readErrorData(err.data);
  if (data) return data.message;
  return err.code === ERROR_CODES.SERVER_BUSY ? 'translationFailed' : 'translationError';
}

/** What the server said of a pair nothing can translate (422001, 501002); null otherwise. */
export function unservedAnswer(err: unknown): {
  reason: 'unsupported_pair' | 'not_configured';
  offers: EngineOffer[];
  suggestedEngines: string[];
} | null {
  if (!(err instanceof ApiError)) return null;
  const reason =
    err.code === ERROR_CODES.TRANSLATION_PAIR_UNSUPPORTED
      ? 'unsupported_pair'
      : err.code === ERROR_CODES.TRANSLATION_NOT_CONFIGURED
        ? 'not_configured'
        : null;
  if (!reason) return null;
  const data = readErrorData(err.data);
  return {
    reason,
    offers: data?.offers ?? [],
    suggestedEngines: data?.suggested_engines ?? [],
  };
}
