import '../mantine-admin-styles';
import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Badge, Button, Group, SegmentedControl, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { AdminSeat } from '@parley/protocol';
import { rowsOf, seatsQuery } from '../api/admin-queries';
import { formatAgo, formatDuration, formatNumber } from '../admin-format';
import { useNow } from '../hooks/use-now';
import { AdminTable, type AdminColumn } from './admin-table';
import { PageHeader } from './page-header';
import {
  SeatCreateDialog,
  SeatFreezeDialog,
  SeatNicknameDialog,
  SeatPasswordDialog,
} from './seat-dialogs';

type Status = 'all' | 'active' | 'frozen';
type Dialog = { kind: 'nickname' | 'password' | 'freeze'; seat: AdminSeat } | null;

function Presence({ seat }: { seat: AdminSeat }) {
  const { t, i18n } = useTranslation('admin');
  if (seat.frozen) {
    return (
      <Badge color="red" variant="light" data-testid="seat-status" data-status="frozen">
        {t('seats.status.frozen')}
      </Badge>
    );
  }
  if (seat.online) {
    return (
      <Badge color="teal" variant="light" data-testid="seat-status" data-status="online">
        {t('seats.status.online')}
      </Badge>
    );
  }
  return (
    <Text size="sm" c="dimmed" data-testid="seat-status" data-status="offline">
      {seat.last_seen_at === null
        ? t('seats.status.never')
        : t('seats.status.lastSeen', { ago: formatAgo(seat.last_seen_at, i18n.language) })}
    </Text>
  );
}

/** Seats: who is on, how much waits for them; create, rename, new password, freeze. */
export function SeatsPage() {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<Status>('all');
  const [debounced] = useDebouncedValue(keyword.trim(), 300);
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const query = useInfiniteQuery(seatsQuery({ keyword: debounced || undefined, status }));
  const rows = rowsOf(query.data);
  const total = query.data?.pages[0]?.total ?? 0;
  const open = (kind: NonNullable<Dialog>['kind'], seat: AdminSeat) => setDialog({ kind, seat });
  const now = useNow();

  const columns: AdminColumn<AdminSeat>[] = [
    {
      key: 'account',
      header: t('seats.columns.account'),
      width: '12%',
      render: (s) => (
        <Text fw={600} size="sm" data-testid="seat-account">
          {s.account}
        </Text>
      ),
    },
    {
      key: 'nickname',
      header: t('seats.columns.nickname'),
      width: '11%',
      render: (s) => (
        <Text size="sm" data-testid="seat-nickname">
          {s.nickname}
        </Text>
      ),
    },
    {
      key: 'status',
      header: t('seats.columns.status'),
      width: '11%',
      render: (s) => <Presence seat={s} />,
    },
    {
      key: 'phones',
      header: t('seats.columns.phones'),
      width: '14%',
      render: (s) => (
        <Text size="sm" data-testid="seat-phones" title={s.phone_accounts.join(', ')}>
          {s.phone_accounts.length ? s.phone_accounts.join(', ') : '—'}
        </Text>
      ),
    },
    {
      key: 'chats',
      header: t('seats.columns.chats'),
      width: '8%',
      render: (s) => <span data-testid="seat-chats">{formatNumber(s.open_chats, lang)}</span>,
    },
    {
      key: 'unread',
      header: t('seats.columns.unread'),
      width: '10%',
      render: (s) => <span data-testid="seat-unread">{formatNumber(s.unread, lang)}</span>,
    },
    {
      key: 'waiting',
      header: t('seats.columns.waiting'),
      width: '10%',
      render: (s) => (
        <Text size="sm" data-testid="seat-waiting">
          {formatNumber(s.waiting_chats, lang)}
          {s.oldest_waiting_since !== null &&
            ` · ${t('seats.oldest', { wait: formatDuration(now - s.oldest_waiting_since, lang) })}`}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: t('seats.columns.actions'),
      width: 290,
      render: (s) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => open('nickname', s)}
            aria-label={t('seats.actions.nicknameFor', { account: s.account })}
            data-testid="seat-edit"
          >
            {t('seats.actions.nickname')}
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => open('password', s)}
            aria-label={t('seats.actions.passwordFor', { account: s.account })}
            data-testid="seat-password"
          >
            {t('seats.actions.password')}
          </Button>
          <Tooltip label={t(s.frozen ? 'seats.unfreeze.title' : 'seats.freeze.title')}>
            <Button
              size="compact-xs"
              variant="light"
              color={s.frozen ? 'blue' : 'red'}
              onClick={() => open('freeze', s)}
              aria-label={t(s.frozen ? 'seats.actions.unfreezeFor' : 'seats.actions.freezeFor', {
                account: s.account,
              })}
              data-testid="seat-freeze"
            >
              {t(s.frozen ? 'seats.actions.unfreeze' : 'seats.actions.freeze')}
            </Button>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('routes.seats')}
        count={query.data ? t('seats.count', { count: total }) : undefined}
        action={
          <Button onClick={() => setCreating(true)} data-testid="seat-create-open">
            {t('seats.create.open')}
          </Button>
        }
      />
      <Group mb="sm" gap="sm" role="search">
        <TextInput
          placeholder={t('seats.search')}
          aria-label={t('seats.search')}
          value={keyword}
          onChange={(e) => setKeyword(e.currentTarget.value)}
          data-testid="seat-search"
          w={260}
        />
        <SegmentedControl
          value={status}
          onChange={(v) => setStatus(v as Status)}
          aria-label={t('seats.filter')}
          data={(['all', 'active', 'frozen'] as const).map((v) => ({
            value: v,
            label: t(`seats.filters.${v}`),
          }))}
          data-testid="seat-status-filter"
        />
      </Group>
      <AdminTable
        label={t('routes.seats')}
        testId="seat-table"
        rows={rows}
        total={total}
        columns={columns}
        minWidth={1400}
        rowKey={(s) => s.seat_id}
        rowTestId={(s) => `seat-row-${s.account}`}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        loading={query.isPending}
        empty={
          <Text c="dimmed" data-testid="seat-empty">
            {t('seats.empty')}
          </Text>
        }
      />
      <SeatCreateDialog opened={creating} onClose={() => setCreating(false)} />
      <SeatNicknameDialog
        seat={dialog?.kind === 'nickname' ? dialog.seat : null}
        onClose={() => setDialog(null)}
      />
      <SeatPasswordDialog
        seat={dialog?.kind === 'password' ? dialog.seat : null}
        onClose={() => setDialog(null)}
      />
      <SeatFreezeDialog
        seat={dialog?.kind === 'freeze' ? dialog.seat : null}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
