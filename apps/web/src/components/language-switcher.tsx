import { useTranslation } from 'react-i18next';
import { UI_LANGUAGES, type UiLanguage } from '@parley/protocol';
import { setUiLanguage } from '../lib/i18n';
import { LANGUAGE_NAMES, LanguageButton } from './language-button';
import { LazyMenu } from './lazy-menu';

/** The UI language picker (its menu's code is fetched when wanted, not with the login screen). */
export function LanguageSwitcher() {
  const { i18n } = useTranslation();
  const current = (UI_LANGUAGES as readonly string[]).includes(i18n.language)
    ? (i18n.language as UiLanguage)
    : 'en';
  return (
    <LazyMenu
      position="bottom-end"
      target={<LanguageButton current={current} />}
      items={UI_LANGUAGES.map((lang) => ({
        key: lang,
        label: LANGUAGE_NAMES[lang],
        fw: lang === current ? 700 : undefined,
        onClick: () => void setUiLanguage(lang),
        attrs: { 'data-lang': lang, lang },
      }))}
    />
  );
}
