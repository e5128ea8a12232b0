import {
  TRANSLATION_LANGUAGE_CODES,
  baseLanguage,
  type TranslationLanguageCode,
} from '@parley/protocol';

const CODES = new Set<string>(TRANSLATION_LANGUAGE_CODES);

/** A code of the protocol's list for an engine's code (case-insensitive), else null. */
export function toListedCode(code: string | null | undefined): TranslationLanguageCode | null {
  if (!code) return null;
  const upper = code.toUpperCase().replace('_', '-');
  if (CODES.has(upper)) return upper as TranslationLanguageCode;
  const base = baseLanguage(upper);
  return CODES.has(base) ? (base as TranslationLanguageCode) : null;
}

export function isListedCode(code: string): code is TranslationLanguageCode {
  return CODES.has(code);
}

export const LISTED_CODES = TRANSLATION_LANGUAGE_CODES;
