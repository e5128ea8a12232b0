import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Badge, Button, Group, SegmentedControl, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OutboxItem } from '@parley/protocol';
import { callAdmin } from '../api/admin-client';
import { outboxQuery, rowsOf } from '../api/admin-queries';
import { useAdminAction } from '../hooks/use-admin-action';
import { formatAgo, formatNumber } from '../admin-format';
import { AdminTable, type AdminColumn } from './admin-table';

type Status = 'failed' | 'pending' | 'all';

function RetryButton({ item }: { item: OutboxItem }) {
  const { t } = useTranslation('admin');
  const action = useAdminAction(
    () => callAdmin('/v1/admin/outbox/retry', { outbox_id: item.outbox_id }),
    ['outbox', 'audit'],
  );
  if (item.status !== 'failed') return null;
  return (
    <Button
      size="compact-xs"
      variant="light"
      loading={action.busy}
      onClick={() => void action.submit()}
      aria-label={t('outbox.retryFor', { phone: item.receiver_phone })}
      data-testid="outbox-retry"
    >
      {t('outbox.retry')}
    </Button>
  );
}

/** Deliveries to the channels still pending or failed, with the error and a retry. */
export function OutboxTable() {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const [status, setStatus] = useState<Status>('failed');
  const query = useInfiniteQuery(outboxQuery({ status: status === 'all' ? undefined : status }));
  const rows = rowsOf(query.data);
  const total = query.data?.pages[0]?.total ?? 0;
  const columns: AdminColumn<OutboxItem>[] = [
    {
      key: 'status',
      header: t('outbox.columns.status'),
      width: '10%',
      render: (o) => (
        <Badge
          color={o.status === 'failed' ? 'red' : 'blue'}
          variant="light"
          data-testid="outbox-status"
        >
          {t(`outbox.status.${o.status}`)}
        </Badge>
      ),
    },
    { key: 'seat', header: t('outbox.columns.seat'), width: '11%', render: (o) => o.seat_account },
    {
      key: 'route',
      header: t('outbox.columns.route'),
      width: '20%',
      render: (o) => <Text size="sm">{`${o.send_phone} → ${o.receiver_phone}`}</Text>,
    },
    {
      key: 'preview',
      header: t('outbox.columns.message'),
      width: '18%',
      render: (o) => (
        <Text size="sm" title={o.preview} truncate>
          {o.kind === 'delete' ? t('outbox.deletion') : o.preview}
        </Text>
      ),
    },
    {
      key: 'error',
      header: t('outbox.columns.error'),
      width: '21%',
      render: (o) => (
        <Text size="sm" c="red" title={o.last_error ?? ''} truncate data-testid="outbox-error">
          {o.last_error ?? '—'}
        </Text>
      ),
    },
    {
      key: 'attempts',
      header: t('outbox.columns.attempts'),
      width: '10%',
      render: (o) => (
        <Text size="sm" title={formatAgo(o.updated_at, lang)}>
          {formatNumber(o.attempts, lang)}
        </Text>
      ),
    },
    {
      key: 'retry',
      header: <VisuallyHidden>{t('outbox.retry')}</VisuallyHidden>,
      width: '10%',
      render: (o) => <RetryButton item={o} />,
    },
  ];
  return (
    <>
      <Group mb="xs" gap="sm">
        <SegmentedControl
          size="xs"
          value={status}
          onChange={(v) => setStatus(v as Status)}
          aria-label={t('outbox.filter')}
          data={(['failed', 'pending', 'all'] as const).map((v) => ({
            value: v,
            label: t(`outbox.filters.${v}`),
          }))}
          data-testid="outbox-filter"
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {query.data ? t('outbox.count', { count: total }) : ''}
        </Text>
      </Group>
      <AdminTable
        label={t('outbox.title')}
        testId="outbox-table"
        rows={rows}
        total={total}
        columns={columns}
        rowKey={(o) => o.outbox_id}
        rowTestId={(o) => `outbox-row-${o.outbox_id}`}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        loading={query.isPending}
        empty={
          <Text c="dimmed" data-testid="outbox-empty">
            {t('outbox.empty')}
          </Text>
        }
      />
    </>
  );
}
