import '../mantine-admin-styles';
import { useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Badge, Button, Checkbox, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import {
  CHANNEL_NAMES,
  type AdminPhoneAccount,
  type AdminTeam,
  type ChannelKind,
} from '@parley/protocol';
import { accountsQuery, rowsOf, teamsQuery } from '../api/admin-queries';
import { formatNumber } from '../admin-format';
import { AdminTable, type AdminColumn } from './admin-table';
import { PageHeader } from './page-header';
import { AccountAssignDialog, AccountCreateDialog, AccountLabelDialog } from './account-dialogs';
import { AccountChannelDialog } from './account-channel-dialog';
import type { ChannelView } from '../../../lib/channel-view';
import { TeamDialog, type TeamSubject } from './team-dialog';
import { TeamsPanel } from './teams-panel';

/**
 * How often the list re-reads the bots' poll state and the WhatsApp numbers' token state while
 * such accounts are shown (they change without an admin action: no push hint).
 */
const CHANNEL_STATE_REFRESH_MS = 15_000;

type Dialog = { kind: 'label' | 'assign' | 'channel'; account: AdminPhoneAccount } | null;

type ChannelViewOf = (channel: string | undefined) => ChannelView;

function Channel({
  account,
  channelView,
}: {
  account: AdminPhoneAccount;
  channelView: ChannelViewOf;
}) {
  const { t } = useTranslation('admin');
  const StatusBadge = channelView(account.channel).admin?.StatusBadge;
  return (
    <Group gap={4} wrap="nowrap">
      <Badge variant="outline" data-testid="account-channel">
        {t(`accounts.channels.${account.channel}`)}
      </Badge>
      {StatusBadge && <StatusBadge account={account} />}
    </Group>
  );
}

/**
 * Phone accounts: which seat holds each, its channel; add, label, assign or move, channel. What
 * a channel shows of its own comes from its view (handed in from app/channels.ts).
 */
export function AccountsPage({ channelView }: { channelView: ChannelViewOf }) {
  const { t, i18n } = useTranslation('admin');
  const [keyword, setKeyword] = useState('');
  const [channel, setChannel] = useState<ChannelKind | null>(null);
  const [unassigned, setUnassigned] = useState(false);
  const [debounced] = useDebouncedValue(keyword.trim(), 300);
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const query = useInfiniteQuery({
    ...accountsQuery({
      keyword: debounced || undefined,
      channel: channel ?? undefined,
      unassigned,
    }),
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) =>
        p.list.some((a) => channelView(a.channel).admin?.StatusBadge !== undefined),
      )
        ? CHANNEL_STATE_REFRESH_MS
        : false,
  });
  const rows = rowsOf(query.data);
  const teams = useQuery(teamsQuery()).data?.teams ?? [];
  const teamOf = (a: { account_id: number }): AdminTeam | null =>
    teams.find((team) => team.account_id === a.account_id) ?? null;
  const [teamEdit, setTeamEdit] = useState<TeamSubject | null>(null);
  const editTeam = (team: AdminTeam) =>
    setTeamEdit({
      account_id: team.account_id,
      send_phone: team.send_phone,
      seat_id: null,
      seat_account: null,
    });
  const total = query.data?.pages[0]?.total ?? 0;
  const open = (kind: NonNullable<Dialog>['kind'], account: AdminPhoneAccount) =>
    setDialog({ kind, account });

  const columns: AdminColumn<AdminPhoneAccount>[] = [
    {
      key: 'phone',
      header: t('accounts.columns.phone'),
      width: '16%',
      render: (a) => (
        <Text fw={600} size="sm" data-testid="account-phone">
          {a.send_phone}
        </Text>
      ),
    },
    {
      key: 'label',
      header: t('accounts.columns.label'),
      width: '16%',
      render: (a) => (
        <Text size="sm" data-testid="account-label">
          {a.label || '—'}
        </Text>
      ),
    },
    {
      key: 'channel',
      header: t('accounts.columns.channel'),
      width: '17%',
      render: (a) => <Channel account={a} channelView={channelView} />,
    },
    {
      key: 'seat',
      header: t('accounts.columns.seat'),
      width: '13%',
      render: (a) => {
        // A team account's seat is its queue: the owner sees the team.
        const team = teamOf(a);
        return team ? (
          // Text, not a badge: "Equipe · 1 membro" wraps in a narrow column instead of ending cut.
          <Text size="sm" fw={600} c="teal" data-testid="account-seat">
            {t('teams.badge', { count: team.members.length })}
          </Text>
        ) : (
          <Text size="sm" data-testid="account-seat" c={a.seat_account ? undefined : 'dimmed'}>
            {a.seat_account ?? t('accounts.unassigned')}
          </Text>
        );
      },
    },
    {
      key: 'chats',
      header: t('accounts.columns.chats'),
      width: '11%',
      render: (a) => (
        <span data-testid="account-chats">{formatNumber(a.chats, i18n.language)}</span>
      ),
    },
    {
      key: 'actions',
      header: t('accounts.columns.actions'),
      width: '27%',
      render: (a) => (
        // Four actions in Russian do not fit one line on a phone: they wrap, never cut.
        <Group gap={4} wrap="wrap">
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => open('label', a)}
            aria-label={t('accounts.actions.labelFor', { phone: a.send_phone })}
            data-testid="account-label-open"
          >
            {t('accounts.actions.label')}
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => open('assign', a)}
            aria-label={t(
              a.seat_id === null ? 'accounts.actions.assignFor' : 'accounts.actions.moveFor',
              { phone: a.send_phone },
            )}
            data-testid="account-assign-open"
          >
            {t(a.seat_id === null ? 'accounts.actions.assign' : 'accounts.actions.move')}
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => open('channel', a)}
            aria-label={t('accounts.actions.channelFor', { phone: a.send_phone })}
            data-testid="account-channel-open"
          >
            {t('accounts.actions.channel')}
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => setTeamEdit(a)}
            aria-label={t('teams.openFor', { phone: a.send_phone })}
            data-testid="account-team-open"
          >
            {t('teams.open')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('routes.accounts')}
        count={query.data ? t('accounts.count', { count: total }) : undefined}
        action={
          <Button onClick={() => setCreating(true)} data-testid="account-create-open">
            {t('accounts.create.open')}
          </Button>
        }
      />
      <TeamsPanel onEdit={editTeam} />
      <Group mb="sm" gap="sm" role="search">
        <TextInput
          placeholder={t('accounts.search')}
          aria-label={t('accounts.search')}
          value={keyword}
          onChange={(e) => setKeyword(e.currentTarget.value)}
          data-testid="account-search"
          w={240}
        />
        <Select
          aria-label={t('accounts.fields.channel')}
          placeholder={t('accounts.allChannels')}
          clearable
          value={channel}
          onChange={(v) => setChannel(v as ChannelKind | null)}
          data={CHANNEL_NAMES.map((c) => ({
            value: c,
            label: t(`accounts.channels.${c}`),
          }))}
          data-testid="account-channel-filter"
          w={180}
        />
        <Checkbox
          label={t('accounts.onlyUnassigned')}
          checked={unassigned}
          onChange={(e) => setUnassigned(e.currentTarget.checked)}
          data-testid="account-unassigned-filter"
        />
      </Group>
      <AdminTable
        label={t('routes.accounts')}
        testId="account-table"
        rows={rows}
        total={total}
        columns={columns}
        minWidth={1100}
        rowKey={(a) => a.account_id}
        rowTestId={(a) => `account-row-${a.send_phone}`}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        loading={query.isPending}
        empty={
          <Text c="dimmed" data-testid="account-empty">
            {t('accounts.empty')}
          </Text>
        }
      />
      <AccountCreateDialog opened={creating} onClose={() => setCreating(false)} />
      <AccountLabelDialog
        account={dialog?.kind === 'label' ? dialog.account : null}
        onClose={() => setDialog(null)}
      />
      <AccountAssignDialog
        account={dialog?.kind === 'assign' ? dialog.account : null}
        onClose={() => setDialog(null)}
      />
      <TeamDialog
        account={teamEdit}
        team={teamEdit ? teamOf(teamEdit) : null}
        onClose={() => setTeamEdit(null)}
      />
      <AccountChannelDialog
        account={dialog?.kind === 'channel' ? dialog.account : null}
        onClose={() => setDialog(null)}
        channelView={channelView}
      />
    </>
  );
}
