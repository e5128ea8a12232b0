import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OverviewFigures as Figures, TranslationUsage } from '@parley/protocol';
import { formatDuration, formatNumber, formatShare } from '../admin-format';

function Figure({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint?: string;
  testId: string;
}) {
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={26} fw={700} data-testid={testId}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" data-testid={`${testId}-hint`}>
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/** The whole workspace's numbers, as cards. */
export function OverviewFigures({ totals }: { totals: Figures }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const n = (v: number) => formatNumber(v, lang);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" mb="md" data-testid="overview-totals">
      <Figure testId="overview-in" label={t('overview.in')} value={n(totals.messages_in_today)} />
      <Figure
        testId="overview-out"
        label={t('overview.out')}
        value={n(totals.messages_out_today)}
      />
      <Figure
        testId="overview-waiting"
        label={t('overview.waiting')}
        value={n(totals.waiting_chats)}
        hint={
          totals.waiting_chats
            ? t('overview.longest', { wait: formatDuration(totals.longest_wait_ms, lang) })
            : undefined
        }
      />
      <Figure
        testId="overview-frt"
        label={t('overview.frt')}
        value={
          totals.median_first_response_ms === null
            ? '—'
            : formatDuration(totals.median_first_response_ms, lang)
        }
        hint={t('overview.frtOver', { count: totals.first_responses_24h })}
      />
      <Figure
        testId="overview-pending"
        label={t('overview.pending')}
        value={n(totals.outbox_pending)}
      />
      <Figure
        testId="overview-failed"
        label={t('overview.failed')}
        value={n(totals.outbox_failed)}
      />
    </SimpleGrid>
  );
}

/** Characters sent to each translation engine today, and how much the memory answered. */
export function TranslationFigures({ usage }: { usage: TranslationUsage }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      mb="md"
      component="section"
      aria-labelledby="overview-translation-title"
      data-testid="overview-translation"
    >
      <Text fw={600} id="overview-translation-title" mb={4}>
        {t('overview.translation.title')}
      </Text>
      <Stack gap={2}>
        {usage.engines.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('overview.translation.none')}
          </Text>
        )}
        {usage.engines.map((e) => (
          <Text size="sm" key={e.engine} data-testid={`overview-engine-${e.engine}`}>
            {t('overview.translation.engine', {
              engine: e.engine,
              chars: formatNumber(e.characters, lang),
            })}
          </Text>
        ))}
        <Text size="sm" data-testid="overview-memory">
          {t('overview.translation.memory', {
            chars: formatNumber(usage.memory_characters, lang),
            share: usage.memory_share === null ? '—' : formatShare(usage.memory_share, lang),
          })}
        </Text>
      </Stack>
    </Paper>
  );
}
