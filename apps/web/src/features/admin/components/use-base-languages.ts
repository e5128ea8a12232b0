import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { TRANSLATION_LANGUAGES } from '@parley/protocol';

/** The base languages (EN, PT, ZH: a glossary's and an engine choice's), named in the UI's. */
export function useBaseLanguages(): { value: string; label: string }[] {
  const { i18n } = useTranslation('admin');
  return useMemo(() => {
    const names = new Intl.DisplayNames([i18n.language], { type: 'language' });
    return TRANSLATION_LANGUAGES.filter((l) => !l.code.includes('-')).map((l) => ({
      value: l.code,
      label: `${names.of(l.bcp47) ?? l.name} (${l.code})`,
    }));
  }, [i18n.language]);
}
