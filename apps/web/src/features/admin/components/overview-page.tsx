import '../mantine-admin-styles';
import { useQuery } from '@tanstack/react-query';
import { Badge, Center, Group, Loader, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OverviewSeat } from '@parley/protocol';
import { overviewQuery } from '../api/admin-queries';
import { formatDateTime, formatDuration, formatNumber } from '../admin-format';
import { AdminTable, type AdminColumn } from './admin-table';
import { OutboxTable } from './outbox-table';
import { OverviewFigures, TranslationFigures } from './overview-figures';
import { PageHeader } from './page-header';
import { ExportButton } from './export-button';
import { SeatStatsButton } from './seat-stats-dialog';
import { StatsCharts } from './stats-charts';
import { tzOffsetMin } from '../api/admin-queries';

function SeatFigures({ seats }: { seats: OverviewSeat[] }) {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const n = (v: number) => formatNumber(v, lang);
  const columns: AdminColumn<OverviewSeat>[] = [
    {
      key: 'seat',
      header: t('overview.columns.seat'),
      width: '18%',
      // The status goes under the account when both do not fit (the column is 18 % of the
      // table's 1,000 px on a phone): squeezed beside it, 'Заблокирован' was cut.
      render: (s) => (
        <Group gap={4} wrap="wrap">
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {s.account}
          </Text>
          {s.online && (
            <Badge size="xs" color="teal" variant="dot" style={{ flexShrink: 0 }}>
              {t('seats.status.online')}
            </Badge>
          )}
          {s.frozen && (
            <Badge
              size="xs"
              color="red"
              variant="light"
              style={{ flexShrink: 0 }}
              data-testid="overview-seat-frozen"
            >
              {t('seats.status.frozen')}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'in',
      header: t('overview.columns.in'),
      render: (s) => <span data-testid="overview-seat-in">{n(s.messages_in_today)}</span>,
    },
    {
      key: 'out',
      header: t('overview.columns.out'),
      render: (s) => <span data-testid="overview-seat-out">{n(s.messages_out_today)}</span>,
    },
    {
      key: 'waiting',
      header: t('overview.columns.waiting'),
      width: '16%',
      render: (s) => (
        <span data-testid="overview-seat-waiting">
          {n(s.waiting_chats)}
          {s.waiting_chats > 0 && ` · ${formatDuration(s.longest_wait_ms, lang)}`}
        </span>
      ),
    },
    {
      key: 'frt',
      header: t('overview.columns.frt'),
      render: (s) =>
        s.median_first_response_ms === null
          ? '—'
          : formatDuration(s.median_first_response_ms, lang),
    },
    { key: 'pending', header: t('overview.columns.pending'), render: (s) => n(s.outbox_pending) },
    {
      key: 'failed',
      header: t('overview.columns.failed'),
      render: (s) => <span data-testid="overview-seat-failed">{n(s.outbox_failed)}</span>,
    },
    {
      key: 'charts',
      header: <VisuallyHidden>{t('stats.seat.open')}</VisuallyHidden>,
      render: (s) => <SeatStatsButton seat={s} />,
    },
  ];
  return (
    <AdminTable
      label={t('overview.perSeat')}
      testId="overview-seats"
      rows={seats}
      total={seats.length}
      columns={columns}
      rowKey={(s) => s.seat_id}
      rowTestId={(s) => `overview-seat-${s.account}`}
      hasNextPage={false}
      isFetchingNextPage={false}
      fetchNextPage={() => undefined}
      loading={false}
      empty={<Text c="dimmed">{t('seats.empty')}</Text>}
    />
  );
}

/** The live overview: today's traffic, waits, response time, deliveries and translation, kept current by the push socket. */
export function OverviewPage() {
  const { t, i18n } = useTranslation('admin');
  const query = useQuery(overviewQuery());
  const overview = query.data;
  if (!overview) {
    return (
      <Center flex={1}>
        <Loader aria-label={t('loading')} />
      </Center>
    );
  }
  return (
    <>
      <PageHeader
        title={t('routes.overview')}
        count={t('overview.updated', { at: formatDateTime(overview.at, i18n.language) })}
        countTestId="overview-updated"
      />
      <OverviewFigures totals={overview.totals} />
      <TranslationFigures usage={overview.translation} />
      <StatsCharts />
      <Tabs
        defaultValue="seats"
        keepMounted={false}
        style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}
      >
        <Tabs.List mb="xs">
          <Tabs.Tab value="seats" data-testid="overview-tab-seats">
            {t('overview.perSeat')}
          </Tabs.Tab>
          <Tabs.Tab value="outbox" data-testid="overview-tab-outbox">
            {t('outbox.title')}
          </Tabs.Tab>
          <Group ml="auto" pb={4}>
            <ExportButton kind="seats" tzOffsetMin={tzOffsetMin()} />
          </Group>
        </Tabs.List>
        <Tabs.Panel
          value="seats"
          style={{ flex: 1, minHeight: 300, display: 'flex', flexDirection: 'column' }}
        >
          <SeatFigures seats={overview.seats} />
        </Tabs.Panel>
        <Tabs.Panel
          value="outbox"
          style={{ flex: 1, minHeight: 300, display: 'flex', flexDirection: 'column' }}
        >
          <OutboxTable />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
