import { Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { languageLabel } from '../../../lib/language-label';
import { translationProblem } from '../api/translation-api';
import type { useOutgoingTranslation } from '../hooks/use-outgoing-translation';
import classes from './composer-translation-preview.module.css';

type Outgoing = ReturnType<typeof useOutgoingTranslation>;

/** What the customer will get: the draft translated into their language, before sending. */
export function ComposerTranslationPreview({ outgoing }: { outgoing: Outgoing }) {
  const { t, i18n } = useTranslation('translation');
  const { preview, pair } = outgoing;
  if (!preview || !pair) return null;
  const problem = preview.isError ? translationProblem(preview.error) : null;
  return (
    <Group gap={6} wrap="nowrap" className={classes.strip} data-testid="composer-translation">
      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
        {languageLabel(pair.target, i18n.language)}:
      </Text>
      {preview.isFetching && preview.data === undefined ? (
        <Loader size={12} />
      ) : problem ? (
        <Text size="xs" c="red" data-testid="composer-translation-error">
          {t(`messages:${problem}`)}
        </Text>
      ) : (
        <Text
          size="sm"
          data-testid="composer-translation-preview"
          style={{ wordBreak: 'break-word' }}
        >
          {preview.data}
        </Text>
      )}
    </Group>
  );
}
