import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Modal,
  Paper,
  SimpleGrid,
  Table,
  Text,
  VisuallyHidden,
  useComputedColorScheme,
  useMantineTheme,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OverviewSeat } from '@parley/protocol';
import { rangeParams, seatStatsQuery } from '../api/stats-queries';
import { formatDateTime, formatDuration, formatNumber } from '../admin-format';
import { StatsCharts } from './stats-charts';
import { UplotChart } from './uplot-chart';
import { useNow } from '../hooks/use-now';

/** A seat's busiest local hours over 30 days and its longest waits: counts and ages only. */
function SeatHours({ seatId }: { seatId: number }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const theme = useMantineTheme();
  const dark = useComputedColorScheme('light') === 'dark';
  const now = useNow();
  const query = useQuery(seatStatsQuery({ ...rangeParams('30d', seatId), seatId }));
  const hours = query.data?.busiest_hours;
  const series = useMemo(
    () =>
      hours
        ? [
            {
              label: t('stats.series.in'),
              color: theme.colors.blue[dark ? 4 : 7]!,
              kind: 'bars' as const,
              align: -1 as const,
              values: hours.map((h) => h.messages_in),
            },
            {
              label: t('stats.series.out'),
              color: theme.colors.teal[dark ? 4 : 7]!,
              kind: 'bars' as const,
              align: 1 as const,
              values: hours.map((h) => h.messages_out),
            },
          ]
        : [],
    [hours, t, theme, dark],
  );
  const x = useMemo(() => Array.from({ length: 24 }, (_, i) => i), []);
  if (!query.data || !hours) return null;
  const hourLabel = (i: number) =>
    Number.isInteger(i) ? new Intl.NumberFormat(lang, { minimumIntegerDigits: 2 }).format(i) : '';
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" mt="sm">
      <Paper
        withBorder
        p="sm"
        radius="md"
        component="figure"
        m={0}
        data-testid="seat-busiest-hours"
      >
        <Text component="figcaption" size="sm" fw={600} mb={4}>
          {t('stats.seat.busiest')} · {t('stats.ranges.30d')}
        </Text>
        <UplotChart
          xLabel={t('stats.seat.hour')}
          x={x}
          series={series}
          formatX={hourLabel}
          formatY={(v) => formatNumber(v, lang)}
          ink={dark ? theme.colors.dark[1]! : theme.colors.gray[7]!}
          grid={dark ? theme.colors.dark[4]! : theme.colors.gray[3]!}
        />
        <VisuallyHidden>
          <table data-testid="seat-busiest-table">
            <caption>{t('stats.seat.busiest')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('stats.seat.hour')}</th>
                <th scope="col">{t('stats.series.in')}</th>
                <th scope="col">{t('stats.series.out')}</th>
              </tr>
            </thead>
            <tbody>
              {hours.map((h) => (
                <tr key={h.hour} data-hour={h.hour}>
                  <th scope="row">{hourLabel(h.hour)}</th>
                  <td>{formatNumber(h.messages_in, lang)}</td>
                  <td>{formatNumber(h.messages_out, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </VisuallyHidden>
      </Paper>
      <Paper
        withBorder
        p="sm"
        radius="md"
        component="section"
        aria-label={t('stats.seat.waitingLongest')}
      >
        <Text size="sm" fw={600} mb={4}>
          {t('stats.seat.waitingLongest')}
        </Text>
        {query.data.waiting_longest.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid="seat-none-waiting">
            {t('stats.seat.noneWaiting')}
          </Text>
        ) : (
          <Table data-testid="seat-waiting-longest" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('stats.seat.since')}</Table.Th>
                <Table.Th>{t('stats.seat.age')}</Table.Th>
                <Table.Th>{t('stats.seat.unanswered')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.waiting_longest.map((w, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{formatDateTime(w.waiting_since, lang)}</Table.Td>
                  <Table.Td>{formatDuration(now - w.waiting_since, lang)}</Table.Td>
                  <Table.Td>{formatNumber(w.unanswered, lang)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </SimpleGrid>
  );
}

/** The seat row's "Charts" button: the same series for the seat, its hours and its waits. */
export function SeatStatsButton({ seat }: { seat: OverviewSeat }) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="compact-xs"
        variant="subtle"
        onClick={() => setOpen(true)}
        data-testid={`seat-stats-${seat.account}`}
      >
        {t('stats.seat.open')}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        size="min(1100px, 96vw)"
        title={t('stats.seat.title', { account: seat.account })}
      >
        {open && (
          <>
            <StatsCharts seatId={seat.seat_id} />
            <SeatHours seatId={seat.seat_id} />
          </>
        )}
      </Modal>
    </>
  );
}
