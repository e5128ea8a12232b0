import {
  TRANSLATION_LANGUAGE_CODES,
  baseLanguage,
  type TranslationLanguageCode,
} from '@parley/protocol';
import { languageLabel } from '../../lib/language-label';

export type SourceLanguage = TranslationLanguageCode | 'auto';

export function isLanguageCode(v: unknown): v is TranslationLanguageCode {
  return (TRANSLATION_LANGUAGE_CODES as readonly unknown[]).includes(v);
}

/** The picker's options: every language (or the given ones) named in the UI language, A-Z. */
export function languageOptions(
  uiLanguage: string,
  codes: readonly TranslationLanguageCode[] = TRANSLATION_LANGUAGE_CODES,
): { value: TranslationLanguageCode; label: string }[] {
  const collator = new Intl.Collator(uiLanguage);
  return codes
    .map((value) => ({ value, label: languageLabel(value, uiLanguage) }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

export function sameLanguage(a: string, b: string): boolean {
  return baseLanguage(a) === baseLanguage(b);
}

interface Languages {
  sourceLanguage: TranslationLanguageCode;
  targetLanguage: TranslationLanguageCode;
}

/**
 * The language a chat's incoming messages are translated from: the chat's customer language
 * when known, else the engine's detection when it has one, else the settings' customer
 * language. Null when that is the operator's own language (nothing to translate).
 */
export function incomingSource(
  customerLanguage: string | null | undefined,
  settings: Languages,
  autoDetect: boolean,
): SourceLanguage | null {
  const source: SourceLanguage = isLanguageCode(customerLanguage)
    ? customerLanguage
    : autoDetect
      ? 'auto'
      : settings.sourceLanguage;
  if (source !== 'auto' && sameLanguage(source, settings.targetLanguage)) return null;
  return source;
}

/**
 * The operator writes in their language (targetLanguage); the customer reads the chat's
 * customer language, else the settings' one. Null when both are the same language.
 */
export function outgoingPair(
  customerLanguage: string | null | undefined,
  settings: Languages,
): { source: TranslationLanguageCode; target: TranslationLanguageCode } | null {
  const target = isLanguageCode(customerLanguage) ? customerLanguage : settings.sourceLanguage;
  if (sameLanguage(target, settings.targetLanguage)) return null;
  return { source: settings.targetLanguage, target };
}
