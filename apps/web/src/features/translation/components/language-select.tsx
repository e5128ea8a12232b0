import { useMemo } from 'react';
import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TranslationLanguageCode } from '@parley/protocol';
import { isLanguageCode, languageOptions } from '../translation-languages';

interface Props {
  label?: string;
  description?: string;
  value: TranslationLanguageCode | null;
  onChange: (code: TranslationLanguageCode | null) => void;
  /** A clearable picker offers "not set" (null). */
  clearable?: boolean;
  placeholder?: string;
  testId: string;
}

/** A searchable picker of the ~45 translation languages, named in the UI language. */
export function LanguageSelect({
  label,
  description,
  value,
  onChange,
  clearable,
  placeholder,
  testId,
}: Props) {
  const { t, i18n } = useTranslation('translation');
  const data = useMemo(() => languageOptions(i18n.language), [i18n.language]);
  return (
    <Select
      label={label}
      description={description}
      placeholder={placeholder}
      data={data}
      value={value}
      onChange={(v) => {
        if (v === null) {
          if (clearable) onChange(null);
        } else if (isLanguageCode(v)) onChange(v);
      }}
      searchable
      clearable={clearable}
      allowDeselect={false}
      nothingFoundMessage={t('noLanguageFound')}
      maxDropdownHeight={260}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
