/** UI languages of the console (spec section 9: zh-cn, en, pt, ru). */
export const UI_LANGUAGES = ['zh-CN', 'en', 'pt', 'ru'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];
export const DEFAULT_UI_LANGUAGE: UiLanguage = 'en';

/** Picks the UI language: the saved one, else the browser's if supported, else en. */
export function resolveUiLanguage(
  saved: string | null | undefined,
  browser: readonly string[],
): UiLanguage {
  const match = (tag: string): UiLanguage | undefined => {
    const lower = tag.toLowerCase();
    if (lower === 'zh-cn' || lower === 'zh' || lower.startsWith('zh-hans')) return 'zh-CN';
    return UI_LANGUAGES.find(
      (l) => l.toLowerCase() === lower || lower.startsWith(`${l.toLowerCase()}-`),
    );
  };
  if (saved) {
    const s = match(saved);
    if (s) return s;
  }
  for (const tag of browser) {
    const b = match(tag);
    if (b) return b;
  }
  return DEFAULT_UI_LANGUAGE;
}

/**
 * Translation languages (about 45), with DeepL-style codes as the spec uses them
 * (EN-GB, PT-BR, PT-PT, ZH-HANS, ZH-HANT, NB). `name` is the English name; the UI shows
 * names in the UI language through Intl.DisplayNames with `bcp47`.
 */
export const TRANSLATION_LANGUAGES = [
  { code: 'AR', name: 'Arabic', bcp47: 'ar' },
  { code: 'BG', name: 'Bulgarian', bcp47: 'bg' },
  { code: 'BN', name: 'Bengali', bcp47: 'bn' },
  { code: 'CS', name: 'Czech', bcp47: 'cs' },
  { code: 'DA', name: 'Danish', bcp47: 'da' },
  { code: 'DE', name: 'German', bcp47: 'de' },
  { code: 'EL', name: 'Greek', bcp47: 'el' },
  { code: 'EN', name: 'English', bcp47: 'en' },
  { code: 'EN-GB', name: 'English (British)', bcp47: 'en-GB' },
  { code: 'EN-US', name: 'English (American)', bcp47: 'en-US' },
  { code: 'ES', name: 'Spanish', bcp47: 'es' },
  { code: 'ET', name: 'Estonian', bcp47: 'et' },
  { code: 'FA', name: 'Persian', bcp47: 'fa' },
  { code: 'FI', name: 'Finnish', bcp47: 'fi' },
  { code: 'FR', name: 'French', bcp47: 'fr' },
  { code: 'HE', name: 'Hebrew', bcp47: 'he' },
  { code: 'HI', name: 'Hindi', bcp47: 'hi' },
  { code: 'HU', name: 'Hungarian', bcp47: 'hu' },
  { code: 'ID', name: 'Indonesian', bcp47: 'id' },
  { code: 'IT', name: 'Italian', bcp47: 'it' },
  { code: 'JA', name: 'Japanese', bcp47: 'ja' },
  { code: 'KO', name: 'Korean', bcp47: 'ko' },
  { code: 'LT', name: 'Lithuanian', bcp47: 'lt' },
  { code: 'LV', name: 'Latvian', bcp47: 'lv' },
  { code: 'MS', name: 'Malay', bcp47: 'ms' },
  { code: 'NB', name: 'Norwegian (Bokmål)', bcp47: 'nb' },
  { code: 'NL', name: 'Dutch', bcp47: 'nl' },
  { code: 'PL', name: 'Polish', bcp47: 'pl' },
  { code: 'PT', name: 'Portuguese', bcp47: 'pt' },
  { code: 'PT-BR', name: 'Portuguese (Brazilian)', bcp47: 'pt-BR' },
  { code: 'PT-PT', name: 'Portuguese (European)', bcp47: 'pt-PT' },
  { code: 'RO', name: 'Romanian', bcp47: 'ro' },
  { code: 'RU', name: 'Russian', bcp47: 'ru' },
  { code: 'SK', name: 'Slovak', bcp47: 'sk' },
  { code: 'SL', name: 'Slovenian', bcp47: 'sl' },
  { code: 'SV', name: 'Swedish', bcp47: 'sv' },
  { code: 'SW', name: 'Swahili', bcp47: 'sw' },
  { code: 'TH', name: 'Thai', bcp47: 'th' },
  { code: 'TL', name: 'Filipino', bcp47: 'fil' },
  { code: 'TR', name: 'Turkish', bcp47: 'tr' },
  { code: 'UK', name: 'Ukrainian', bcp47: 'uk' },
  { code: 'UR', name: 'Urdu', bcp47: 'ur' },
  { code: 'VI', name: 'Vietnamese', bcp47: 'vi' },
  { code: 'ZH', name: 'Chinese', bcp47: 'zh' },
  { code: 'ZH-HANS', name: 'Chinese (Simplified)', bcp47: 'zh-Hans' },
  { code: 'ZH-HANT', name: 'Chinese (Traditional)', bcp47: 'zh-Hant' },
] as const;
export type TranslationLanguageCode = (typeof TRANSLATION_LANGUAGES)[number]['code'];
export const TRANSLATION_LANGUAGE_CODES = TRANSLATION_LANGUAGES.map((l) => l.code) as [
  TranslationLanguageCode,
  ...TranslationLanguageCode[],
];

export const TRANSLATION_MODES = ['single', 'auto_all'] as const;
export type TranslationMode = (typeof TRANSLATION_MODES)[number];
export const TRANSLATION_DEFAULTS = {
  sourceLanguage: 'EN',
  targetLanguage: 'ZH-HANS',
  isEnable: false,
  mode: 'single',
} as const satisfies {
  sourceLanguage: TranslationLanguageCode;
  targetLanguage: TranslationLanguageCode;
  isEnable: boolean;
  mode: TranslationMode;
};
