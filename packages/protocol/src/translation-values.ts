// Plain values of the translation calls, in a module of their own: the console's first screen
// reads them without zod (calls/translation.ts) and the login screen does not download them
// (languages.ts is in its chunk).

/** EN-GB -> EN, ZH-HANS -> ZH: two codes of one language share their base. */
export function baseLanguage(code: string): string {
  return code.split('-')[0]!;
}

/**
 * `message` of a translation failure (TranslationErrorData): the key of
 * its text.
 */
export const TRANSLATION_PROBLEMS = [
  'translationFailed',
  'translationError',
  'languageListFailed',
] as const;
