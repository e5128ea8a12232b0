import { Alert, Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { translationErrorData, type TranslationLanguageCode } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { languageLabel } from '../../../lib/language-label';
import { languagesQuery, type EngineLanguages } from '../api/translation-api';

/** Shown with their usual spelling; an unknown engine name as it is. */
const ENGINE_NAMES: Record<string, string> = {
  deepl: 'DeepL',
  libretranslate: 'LibreTranslate',
  apertium: 'Apertium',
};
export const engineName = (name: string) => ENGINE_NAMES[name] ?? name;

/** Pairs listed at most; the rest is counted. */
const PAIRS_SHOWN = 12;

/** Whether the engine translates source -> target (null: it cannot tell). */
export function offersPair(
  langs: EngineLanguages,
  source: TranslationLanguageCode,
  target: TranslationLanguageCode,
): boolean {
  if (langs.pairs) return langs.pairs.some((p) => p.source === source && p.target === target);
  return langs.sources.includes(source) && langs.targets.includes(target);
}

/** The active engine, the fallback order, and the language pairs it offers. */
export function EngineInfo({
  source,
  target,
}: {
  source: TranslationLanguageCode;
  target: TranslationLanguageCode;
}) {
  const { t, i18n } = useTranslation('translation');
  const { data, error, isPending } = useQuery(languagesQuery);
  const name = (code: string) => languageLabel(code, i18n.language);

  if (isPending) return <Loader size="sm" />;
  if (!data) {
    const reason = error instanceof ApiError ? translationErrorData.safeParse(error.data) : null;
    const notConfigured = reason?.success && reason.data.reason === 'not_configured';
    return (
      <Alert color="red" variant="light" data-testid="translation-languages-error">
        <Text size="sm">{t('messages:languageListFailed')}</Text>
        {notConfigured && <Text size="xs">{t('noEngine')}</Text>}
      </Alert>
    );
  }

  const pairs = data.pairs ?? [];
  return (
    <Stack gap={6}>
      <Group gap="xs">
        <Text size="sm">{t('engine')}</Text>
        <Badge variant="light" tt="none" data-testid="translation-engine" data-engine={data.engine}>
          {engineName(data.engine)}
        </Badge>
        {data.engines.length > 1 && (
          <Text size="xs" c="dimmed">
            {t('fallback', { order: data.engines.map(engineName).join(' → ') })}
          </Text>
        )}
      </Group>
      {data.pairs ? (
        <Group gap={4} data-testid="translation-pairs">
          {pairs.slice(0, PAIRS_SHOWN).map((p) => (
            <Badge
              key={`${p.source}>${p.target}`}
              variant="outline"
              tt="none"
              data-testid="translation-pair"
            >
              {name(p.source)} → {name(p.target)}
            </Badge>
          ))}
          {pairs.length > PAIRS_SHOWN && (
            <Text size="xs" c="dimmed">
              {t('morePairs', { count: pairs.length - PAIRS_SHOWN })}
            </Text>
          )}
        </Group>
      ) : (
        <Text size="xs" c="dimmed" data-testid="translation-pairs">
          {t('anyPair', { sources: data.sources.length, targets: data.targets.length })}
        </Text>
      )}
      {!offersPair(data, source, target) && (
        <Text size="xs" c="orange" data-testid="translation-pair-unsupported">
          {t('pairUnsupported', { source: name(source), target: name(target) })}
        </Text>
      )}
    </Stack>
  );
}
