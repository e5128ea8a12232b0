import '@mantine/core/styles/Menu.layer.css';
import { Menu } from '@mantine/core';
import { UI_LANGUAGES, type UiLanguage } from '@parley/protocol';
import { setUiLanguage } from '../lib/i18n';
import { LANGUAGE_NAMES, LanguageButton } from './language-button';

interface Props {
  current: UiLanguage;
  /** Held by LanguageSwitcher: a click before this menu's code arrived opens it too. */
  opened: boolean;
  onChange: (opened: boolean) => void;
}

/** The four UI languages in a menu (loaded by LanguageSwitcher when wanted). */
export function LanguageMenu({ current, opened, onChange }: Props) {
  return (
    <Menu position="bottom-end" withinPortal opened={opened} onChange={onChange}>
      <Menu.Target>
        <LanguageButton current={current} />
      </Menu.Target>
      <Menu.Dropdown>
        {UI_LANGUAGES.map((lang) => (
          <Menu.Item
            key={lang}
            data-lang={lang}
            lang={lang}
            fw={lang === current ? 700 : undefined}
            onClick={() => void setUiLanguage(lang)}
          >
            {LANGUAGE_NAMES[lang]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
