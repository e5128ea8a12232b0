import { TRANSLATION_LANGUAGES } from '@parley/protocol';

/** A translation language's name in the UI language, with its code ("Spanish (ES)"). */
export function languageLabel(code: string, uiLanguage: string): string {
  const bcp47 = TRANSLATION_LANGUAGES.find((l) => l.code === code.toUpperCase())?.bcp47;
  if (!bcp47) return code;
  try {
    const name = new Intl.DisplayNames([uiLanguage], { type: 'language' }).of(bcp47);
    return name ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}
