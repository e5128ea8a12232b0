import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Group,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Text,
  VisuallyHidden,
  useComputedColorScheme,
  useMantineTheme,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StatsSeries } from '@parley/protocol';
import { rangeParams, statsSeriesQuery, type StatsRange } from '../api/stats-queries';
import { formatNumber } from '../admin-format';
import { ExportButton } from './export-button';
import { ExportRange } from './export-range';
import { UplotChart, type ChartSeries } from './uplot-chart';

export interface ChartDef {
  id:
    | 'messages'
    | 'waiting'
    | 'frt'
    | 'translation'
    | 'glossary'
    | 'roundTrips'
    | 'assignments'
    | 'queueWait';
  title: string;
  series: ChartSeries[];
  /** y values as text (counts, minutes). */
  formatY: (v: number) => string;
}

const MINUTE = 60_000;

/** The charts of a series: what they plot and how their numbers read. */
export function useChartDefs(data: StatsSeries | undefined): ChartDef[] {
  const { t, i18n } = useTranslation('admin');
  const theme = useMantineTheme();
  const dark = useComputedColorScheme('light') === 'dark';
  const lang = i18n.language;
  return useMemo(() => {
    if (!data) return [];
    const c = (name: string) => theme.colors[name]![dark ? 4 : 7]!;
    const count = (v: number) => formatNumber(v, lang);
    const minutes = (v: number) =>
      new Intl.NumberFormat(lang, {
        style: 'unit',
        unit: 'minute',
        maximumFractionDigits: 1,
      }).format(v);
    const b = data.buckets;
    const engines = [...new Set(b.flatMap((x) => Object.keys(x.engine_characters)))].sort();
    const palette = ['grape', 'orange', 'cyan', 'lime', 'pink'];
    const toMin = (v: number | null) => (v === null ? null : v / MINUTE);
    return [
      {
        id: 'messages',
        title: t('stats.charts.messages'),
        formatY: count,
        series: [
          {
            label: t('stats.series.in'),
            color: c('blue'),
            kind: 'bars',
            align: -1,
            values: b.map((x) => x.messages_in),
          },
          {
            label: t('stats.series.out'),
            color: c('teal'),
            kind: 'bars',
            align: 1,
            values: b.map((x) => x.messages_out),
          },
        ],
      },
      {
        id: 'waiting',
        title: t('stats.charts.waiting'),
        formatY: count,
        series: [
          {
            label: t('stats.series.waiting'),
            color: c('red'),
            kind: 'step',
            values: b.map((x) => x.waiting),
          },
        ],
      },
      {
        id: 'frt',
        title: t('stats.charts.frt'),
        formatY: minutes,
        series: [
          {
            label: t('stats.series.median'),
            color: c('indigo'),
            kind: 'line',
            values: b.map((x) => toMin(x.first_response_median_ms)),
          },
          {
            label: t('stats.series.p90'),
            color: c('yellow'),
            kind: 'line',
            values: b.map((x) => toMin(x.first_response_p90_ms)),
          },
        ],
      },
      {
        id: 'translation',
        title: t('stats.charts.translation'),
        formatY: count,
        series: [
          ...engines.map((engine, i): ChartSeries => ({
            label: engine,
            color: c(palette[i % palette.length]!),
            kind: 'line',
            values: b.map((x) => x.engine_characters[engine] ?? 0),
          })),
          {
            label: t('stats.series.memory'),
            color: c('gray'),
            kind: 'line',
            values: b.map((x) => x.memory_characters),
          },
        ],
      },
      {
        id: 'glossary',
        title: t('stats.charts.glossary'),
        formatY: count,
        series: [
          {
            label: t('stats.series.glossaryHits'),
            color: c('teal'),
            kind: 'bars',
            values: b.map((x) => x.glossary_hits),
          },
        ],
      },
      {
        // Replies checked by a round trip before sending, and those with a fact flagged.
        id: 'roundTrips',
        title: t('stats.charts.roundTrips'),
        formatY: count,
        series: [
          {
            label: t('stats.series.backTranslations'),
            color: c('violet'),
            kind: 'bars',
            align: -1,
            values: b.map((x) => x.back_translations),
          },
          {
            label: t('stats.series.flagged'),
            color: c('red'),
            kind: 'bars',
            align: 1,
            values: b.map((x) => x.flagged_round_trips),
          },
        ],
      },
      {
        // Team accounts: chats given to a member (of them, hand-overs) and given back.
        id: 'assignments',
        title: t('stats.charts.assignments'),
        formatY: count,
        series: [
          {
            label: t('stats.series.assignments'),
            color: c('teal'),
            kind: 'bars',
            align: -1,
            values: b.map((x) => x.assignments),
          },
          {
            label: t('stats.series.handovers'),
            color: c('grape'),
            // A share of the assignments: a line over their bars.
            kind: 'line',
            values: b.map((x) => x.handovers),
          },
          {
            label: t('stats.series.backToQueue'),
            color: c('orange'),
            kind: 'bars',
            align: 1,
            values: b.map((x) => x.back_to_queue),
          },
        ],
      },
      {
        // From entering a team's queue to being taken or routed.
        id: 'queueWait',
        title: t('stats.charts.queueWait'),
        formatY: minutes,
        series: [
          {
            label: t('stats.series.mean'),
            color: c('indigo'),
            kind: 'line',
            values: b.map((x) => toMin(x.queue_wait_avg_ms)),
          },
          {
            label: t('stats.series.p90'),
            color: c('yellow'),
            kind: 'line',
            values: b.map((x) => toMin(x.queue_wait_p90_ms)),
          },
        ],
      },
    ];
  }, [data, t, lang, dark, theme]);
}

/** A bucket's start as the owner reads it: the hour for one day, else the date. */
export function useBucketLabel(data: StatsSeries | undefined) {
  const { i18n } = useTranslation('admin');
  const lang = i18n.language;
  const bucket = data?.bucket;
  const timeZone = data?.time_zone;
  return useMemo(() => {
    const opts: Intl.DateTimeFormatOptions =
      bucket === 'hour'
        ? { hour: '2-digit', minute: '2-digit', timeZone }
        : { month: 'short', day: 'numeric', timeZone };
    const f = new Intl.DateTimeFormat(lang, opts);
    return (ms: number) => f.format(ms);
  }, [bucket, timeZone, lang]);
}

/** The numbers behind a chart, for screen readers (the canvas is hidden from them). */
function ChartTable({
  def,
  data,
  label,
}: {
  def: ChartDef;
  data: StatsSeries;
  label: (ms: number) => string;
}) {
  const { t } = useTranslation('admin');
  return (
    <VisuallyHidden>
      <table data-testid={`stats-table-${def.id}`}>
        <caption>{def.title}</caption>
        <thead>
          <tr>
            <th scope="col">{t('stats.when')}</th>
            {def.series.map((s) => (
              <th scope="col" key={s.label}>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.buckets.map((b, i) => (
            <tr key={b.start} data-start={b.start}>
              <th scope="row">{label(b.start)}</th>
              {def.series.map((s) => {
                const v = s.values[i];
                return (
                  <td key={s.label} data-series={s.label}>
                    {v === null || v === undefined ? '—' : def.formatY(v)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </VisuallyHidden>
  );
}

/** The charts of one series (every seat or one), two a row from 1024 px. */
export function StatsChartGrid({ data }: { data: StatsSeries }) {
  const { t } = useTranslation('admin');
  const defs = useChartDefs(data);
  const label = useBucketLabel(data);
  const theme = useMantineTheme();
  const dark = useComputedColorScheme('light') === 'dark';
  const ink = dark ? theme.colors.dark[1]! : theme.colors.gray[7]!;
  const grid = dark ? theme.colors.dark[4]! : theme.colors.gray[3]!;
  const x = useMemo(() => data.buckets.map((_, i) => i), [data.buckets]);
  const formatX = useMemo(
    () => (i: number) =>
      Number.isInteger(i) && data.buckets[i] ? label(data.buckets[i].start) : '',
    [data.buckets, label],
  );
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
      {defs.map((def) => (
        <Paper
          key={def.id}
          withBorder
          p="sm"
          radius="md"
          component="figure"
          m={0}
          data-testid={`stats-chart-${def.id}`}
        >
          <Text component="figcaption" size="sm" fw={600} mb={4}>
            {def.title}
          </Text>
          <UplotChart
            xLabel={t('stats.when')}
            x={x}
            series={def.series}
            formatX={formatX}
            formatY={def.formatY}
            ink={ink}
            grid={grid}
          />
          <ChartTable def={def} data={data} label={label} />
        </Paper>
      ))}
    </SimpleGrid>
  );
}

export function RangeControl({
  value,
  onChange,
}: {
  value: StatsRange;
  onChange: (r: StatsRange) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(v) => onChange(v as StatsRange)}
      data-testid="stats-range"
      aria-label={t('stats.range')}
      data={[
        { value: 'today', label: t('stats.ranges.today') },
        { value: '7d', label: t('stats.ranges.7d') },
        { value: '30d', label: t('stats.ranges.30d') },
      ]}
    />
  );
}

/** The overview's charts over today, 7 or 30 days of the owner's time zone. */
export function StatsCharts({ seatId = null }: { seatId?: number | null }) {
  const { t } = useTranslation('admin');
  const [range, setRange] = useState<StatsRange>('today');
  const params = rangeParams(range, seatId);
  const query = useQuery(statsSeriesQuery(params));
  return (
    <section
      aria-label={t('stats.title')}
      data-testid={seatId === null ? 'stats-charts' : 'seat-stats-charts'}
      style={{ marginBottom: 'var(--mantine-spacing-md)' }}
    >
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{t('stats.title')}</Text>
        <Group gap="xs">
          <RangeControl value={range} onChange={setRange} />
          <ExportButton kind="series" params={params} />
          <ExportRange params={params} />
        </Group>
      </Group>
      {query.data ? (
        <StatsChartGrid data={query.data} />
      ) : (
        <Loader size="sm" aria-label={t('loading')} />
      )}
    </section>
  );
}
