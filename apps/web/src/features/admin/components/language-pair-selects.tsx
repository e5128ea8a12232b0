import { Select, type ComboboxData } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface Props {
  /** The source's choices (the engines' routes add "detected"); the target's: `targets`. */
  sources: ComboboxData;
  targets: ComboboxData;
  source: string | null;
  target: string | null;
  onSource: (value: string | null) => void;
  onTarget: (value: string | null) => void;
  width: number;
  /** `<testId>-source` and `<testId>-target`. */
  testId: string;
  targetError?: string | null;
}

/**
 * A language pair as the owner picks it (a fixed translation, an engine route): From and To,
 * searchable, never emptied (a pair always has both languages).
 */
export function LanguagePairSelects(props: Props) {
  const { t } = useTranslation('admin');
  return (
    <>
      <Select
        label={t('glossary.from')}
        data={props.sources}
        value={props.source}
        onChange={props.onSource}
        searchable
        allowDeselect={false}
        w={props.width}
        data-testid={`${props.testId}-source`}
      />
      <Select
        label={t('glossary.to')}
        data={props.targets}
        value={props.target}
        onChange={props.onTarget}
        searchable
        allowDeselect={false}
        w={props.width}
        data-testid={`${props.testId}-target`}
        error={props.targetError}
      />
    </>
  );
}
