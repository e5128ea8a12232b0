import { Button, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { UiLanguage } from '@parley/protocol';

/** Each language is named in itself, so it can be found whatever the current language. */
export const LANGUAGE_NAMES: Record<UiLanguage, string> = {
  'zh-CN': '简体中文',
  en: 'English',
  pt: 'Português',
  ru: 'Русский',
};

type Props = ButtonProps & ComponentPropsWithRef<'button'> & { current: UiLanguage };

/** The language switcher's button: the current language, named in itself. */
export function LanguageButton({ current, ...props }: Props) {
  const { t } = useTranslation();
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      aria-label={t('header.language')}
      data-testid="language-switcher"
      data-current-lang={current}
      {...props}
    >
      {LANGUAGE_NAMES[current]}
    </Button>
  );
}
