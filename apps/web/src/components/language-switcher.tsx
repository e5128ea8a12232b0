import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { UI_LANGUAGES, type UiLanguage } from '@parley/protocol';
import { setUiLanguage } from '../lib/i18n';

/** Each language is named in itself, so it can be found whatever the current language. */
export const LANGUAGE_NAMES: Record<UiLanguage, string> = {
  'zh-CN': '简体中文',
  en: 'English',
  pt: 'Português',
  ru: 'Русский',
};

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = (UI_LANGUAGES as readonly string[]).includes(i18n.language)
    ? (i18n.language as UiLanguage)
    : 'en';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-label={t('header.language')}
          data-testid="language-switcher"
          data-current-lang={current}
        >
          {LANGUAGE_NAMES[current]}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {UI_LANGUAGES.map((lang) => (
          <Menu.Item
            key={lang}
            data-lang={lang}
            lang={lang}
            fw={lang === current ? 700 : undefined}
            onClick={() => setUiLanguage(lang)}
          >
            {LANGUAGE_NAMES[lang]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
