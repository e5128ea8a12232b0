import { z } from 'zod';
import { id } from '../entities.js';
import { TRANSLATION_LANGUAGE_CODES } from '../languages.js';
import { TRANSLATION_PROBLEMS, baseLanguage } from '../translation-values.js';
import { TRANSLATE_TEXTS_MAX, TRANSLATE_TEXT_MAX } from '../limits.js';

export const translationLanguage = z.enum(TRANSLATION_LANGUAGE_CODES);

/**
 * Texts of one chat to translate. Emoji, URLs, e-mail addresses, phone numbers, numbers and
 * @mentions come back untouched. `direction` says whose words they are: `incoming` (the
 * customer's; with `session_id` and `source_lang` auto, the detected language becomes the
 * chat's `customer_language`) or `outgoing` (the operator's draft; nothing is remembered).
 */
export const translateTextRequest = z
  .object({
    session_id: id.optional(),
    texts: z.array(z.string().max(TRANSLATE_TEXT_MAX)).min(1).max(TRANSLATE_TEXTS_MAX),
    source_lang: z.union([translationLanguage, z.literal('auto')]).default('auto'),
    target_lang: translationLanguage,
    direction: z.enum(['incoming', 'outgoing']).default('incoming'),
  })
  .superRefine((v, ctx) => {
    if (v.source_lang !== 'auto' && baseLanguage(v.source_lang) === baseLanguage(v.target_lang)) {
      ctx.addIssue({
        code: 'custom',
        path: ['target_lang'],
        message: 'same language as source_lang',
      });
    }
  });
export const translateTextResponse = z.object({
  /** The engine that completed the request (each translation names its own). */
  engine: z.string(),
  /** One per text, in the order of `texts`. */
  translations: z.array(
    z.object({
      text: z.string(),
      /** A code of the language list, or null when not detected (or not asked: explicit source). */
      detected_source_language: translationLanguage.nullable(),
      /** Served from the server's translation memory: no engine was asked for it. */
      from_memory: z.boolean(),
      /** Null when the text held nothing to translate (only emoji, numbers, links...). */
      engine: z.string().nullable(),
    }),
  ),
  /** The chat's customer language after this call (null without `session_id` or unknown). */
  customer_language: translationLanguage.nullable(),
});

/** The pairs it translates; null when any source goes to any target. */
const languagePairs = z
  .array(z.object({ source: translationLanguage, target: translationLanguage }))
  .nullable();

/** What one configured engine translates. */
export const engineOffer = z.object({
  engine: z.string(),
  /** The engine detects the source language (`source_lang: "auto"`). */
  auto_detect: z.boolean(),
  sources: z.array(translationLanguage),
  targets: z.array(translationLanguage),
  pairs: languagePairs,
});
export type EngineOffer = z.infer<typeof engineOffer>;

/** The engine in use and what it offers, for the translation settings dialog. */
export const translationLanguagesRequest = z.object({});
export const translationLanguagesResponse = z.object({
  /** The first configured engine that could tell its languages. */
  engine: z.string(),
  /** Every configured engine, in fallback order. */
  engines: z.array(z.string()),
  /** The engine detects the source language (`source_lang: "auto"`). */
  auto_detect: z.boolean(),
  sources: z.array(translationLanguage),
  targets: z.array(translationLanguage),
  pairs: languagePairs,
  /**
   * What each configured engine translates, in fallback order (an engine that could not tell
   * is left out): together they say which pairs can be translated at all.
   */
  offers: z.array(engineOffer),
});

/** Remember (or clear, with null) a chat's customer language; the seat's own chats only. */
export const setCustomerLanguageRequest = z.object({
  session_id: id,
  customer_language: translationLanguage.nullable(),
});
export const setCustomerLanguageResponse = z.object({
  session_id: id,
  customer_language: translationLanguage.nullable(),
});

/**
 * `data` of a translation failure. 422001: no configured engine offers the pair; 501002: no
 * engine is configured (both "Translation error": asking again will not help). 500005
 * "Translation failed" (or "Failed to get language list"): the engines failed for now
 * (unreachable, 5xx after retries, rate limit, quota). `message` is the key of the text in
 * OTHER_MESSAGES.
 */
export const translationFailureReason = z.enum([
  'not_configured',
  'unsupported_pair',
  'quota_exceeded',
  'rate_limited',
  'unavailable',
  'auth_failed',
  'bad_response',
]);
export type TranslationFailureReason = z.infer<typeof translationFailureReason>;
export const translationErrorData = z.object({
  message: z.enum(TRANSLATION_PROBLEMS),
  reason: translationFailureReason,
  /** What each engine answered, in fallback order. */
  attempts: z.array(z.object({ engine: z.string(), reason: translationFailureReason })),
  /** 422001 / 501002 of a translation: the pair that was asked. */
  pair: z
    .object({
      source: z.union([translationLanguage, z.literal('auto')]),
      target: translationLanguage,
    })
    .optional(),
  /** 422001 / 501002: what each configured engine translates (empty: none is configured). */
  offers: z.array(engineOffer).optional(),
  /**
   * 422001 / 501002: engines that are not configured here and translate most languages (e.g.
   * `deepl`, `libretranslate`); empty when every such engine is configured already.
   */
  suggested_engines: z.array(z.string()).optional(),
});
export type TranslationErrorData = z.infer<typeof translationErrorData>;

/** What a fact is: a flag names the kind so the console can say it in the operator's words. */
export const ROUND_TRIP_FACT_KINDS = [
  'number',
  'amount',
  'date',
  'url',
  'email',
  'phone',
  'code',
  'mention',
  'emoji',
  'name',
  'negation',
] as const;
export type RoundTripFactKind = (typeof ROUND_TRIP_FACT_KINDS)[number];

/**
 * A fact that did not survive the round trip: `lost` (in the operator's text, missing from the
 * translation, or kept by the translation and missing from the back-translation) or `added`
 * (in the translation or the back-translation only). `stage` says which text shows it.
 */
export const roundTripFlag = z.object({
  kind: z.enum(ROUND_TRIP_FACT_KINDS),
  /** The fact as written (a negation: its word). */
  value: z.string(),
  change: z.enum(['lost', 'added']),
  stage: z.enum(['translation', 'back_translation']),
});
export type RoundTripFlag = z.infer<typeof roundTripFlag>;

const translatedPart = z.object({
  text: z.string(),
  /** Null when the text held nothing to translate (only emoji, numbers, links...). */
  engine: z.string().nullable(),
  /** Served from the shared translation memory: no engine was asked for it. */
  from_memory: z.boolean(),
});

/**
 * An operator's reply translated into the customer's language and back into the operator's,
 * by another engine when one offers the reverse pair. The customer gets `translation.text`.
 */
export const roundTripRequest = z
  .object({
    session_id: id,
    text: z.string().min(1).max(TRANSLATE_TEXT_MAX),
    /** The operator's language (explicit: the reply is theirs). */
    source_lang: translationLanguage,
    /** The customer's language. */
    target_lang: translationLanguage,
  })
  .superRefine((v, ctx) => {
    if (baseLanguage(v.source_lang) === baseLanguage(v.target_lang)) {
      ctx.addIssue({
        code: 'custom',
        path: ['target_lang'],
        message: 'same language as source_lang',
      });
    }
    if (v.text.trim() === '') ctx.addIssue({ code: 'custom', path: ['text'], message: 'required' });
  });
export const roundTripResponse = z.object({
  translation: translatedPart,
  /**
   * What the translation says in the operator's language; null when no engine could answer
   * (`back_failure` says why): the translation itself is still good to send.
   */
  back_translation: translatedPart.nullable(),
  back_failure: translationFailureReason.nullable(),
  flags: z.array(roundTripFlag),
});

/** The round trip of a reply the seat sent translated (from the round trip made before). */
export const sentRoundTripRequest = z.object({ session_id: id, msg_id: id });
export const sentRoundTripResponse = z.object({
  msg_id: id,
  /** The engine that made the translation the customer got; null as `back_translation`. */
  translation_engine: z.string().nullable(),
  /** Null when the reply was not sent through a round trip (or no engine could answer). */
  back_translation: z.string().nullable(),
  /** The engine that made the back-translation. */
  engine: z.string().nullable(),
  flags: z.array(roundTripFlag),
});
