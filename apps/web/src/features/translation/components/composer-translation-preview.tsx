import { Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { languageLabel } from '../../../lib/language-label';
import { translationProblem } from '../api/translation-api';
import type { useOutgoingTranslation } from '../hooks/use-outgoing-translation';
import { engineName } from './engine-info';
import { RoundTripFlags } from './round-trip-flags';
import classes from './composer-translation-preview.module.css';

type Outgoing = ReturnType<typeof useOutgoingTranslation>;

/**
 * What the customer will get: the draft translated into their language, before sending; under
 * it, in the operator's language, what that translation says (translated back, by another
 * engine when there is one) and the facts that did not survive the round trip.
 */
export function ComposerTranslationPreview({ outgoing }: { outgoing: Outgoing }) {
  const { t, i18n } = useTranslation('translation');
  const { preview, pair } = outgoing;
  if (!preview || !pair) return null;
  const problem = preview.isError ? translationProblem(preview.error) : null;
  const data = preview.data;
  return (
    <Stack gap={2} className={classes.strip} data-testid="composer-translation">
      <Group gap={6} wrap="nowrap" align="flex-start">
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
          {languageLabel(pair.target, i18n.language)}:
        </Text>
        {preview.isFetching && data === undefined ? (
          <Loader size={12} />
        ) : problem ? (
          <Text size="xs" c="red" data-testid="composer-translation-error">
            {t(`messages:${problem}`)}
          </Text>
        ) : (
          <div>
            <Text
              size="sm"
              data-testid="composer-translation-preview"
              style={{ wordBreak: 'break-word' }}
            >
              {data?.translation.text}
            </Text>
            {data?.translation.engine && (
              // Which engine made what the customer will read, small, as under their messages.
              <Text size="10px" c="dimmed" data-testid="composer-translation-engine">
                {t('madeBy', { engine: engineName(data.translation.engine) })}
              </Text>
            )}
          </div>
        )}
      </Group>
      {data && !problem && (
        <>
          <Group gap={6} wrap="nowrap" align="flex-start">
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {t('backTranslation', { language: languageLabel(pair.source, i18n.language) })}:
            </Text>
            {data.back_translation ? (
              <Text
                size="xs"
                c="dimmed"
                data-testid="composer-back-translation"
                style={{ wordBreak: 'break-word' }}
              >
                {data.back_translation.text}
              </Text>
            ) : (
              <Text size="xs" c="dimmed" data-testid="composer-back-translation-missing">
                {t('backTranslationMissing')}
              </Text>
            )}
          </Group>
          <RoundTripFlags flags={data.flags} />
        </>
      )}
    </Stack>
  );
}
