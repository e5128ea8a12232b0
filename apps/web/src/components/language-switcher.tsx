import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UI_LANGUAGES, type UiLanguage } from '@parley/protocol';
import { LanguageButton } from './language-button';

const loadMenu = () => import('./language-menu');
const LanguageMenu = lazy(async () => ({ default: (await loadMenu()).LanguageMenu }));

/**
 * The UI language picker. Its menu (Mantine's Menu and its positioning library, ~30 KB gzip)
 * is fetched when the pointer or the focus reaches the button, not with the login screen; the
 * button stays the same element until it is clicked (swapping it under the pointer would lose
 * the click).
 */
export function LanguageSwitcher() {
  const { i18n } = useTranslation();
  const current = (UI_LANGUAGES as readonly string[]).includes(i18n.language)
    ? (i18n.language as UiLanguage)
    : 'en';
  const [wanted, setWanted] = useState(false);
  const [opened, setOpened] = useState(false);
  const button = (
    <LanguageButton
      current={current}
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => {
        setWanted(true);
        setOpened((o) => !o);
      }}
    />
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu current={current} opened={opened} onChange={setOpened} />
    </Suspense>
  );
}
