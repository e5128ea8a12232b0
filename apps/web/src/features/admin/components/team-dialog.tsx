import { useState, type FormEvent } from 'react';
import { MultiSelect, NumberInput, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import {
  TEAM_CAPACITY_MAX,
  TEAM_MEMBERS_MAX,
  type AdminPhoneAccount,
  type AdminTeam,
  type TeamRouting,
} from '@parley/protocol';
import { callAdmin } from '../api/admin-client';
import { rowsOf, seatsQuery } from '../api/admin-queries';
import { useAdminAction } from '../hooks/use-admin-action';
import { ActionAlert } from './action-alert';
import { DialogButtons } from './dialog-parts';
import { TeamReceiverField, TO_QUEUE } from './team-receiver-field';

/** The account the dialog is about (a row of the accounts list, or a team's card). */
export type TeamSubject = Pick<
  AdminPhoneAccount,
  'account_id' | 'send_phone' | 'seat_id' | 'seat_account'
>;

interface Props {
  account: TeamSubject | null;
  /** The account's team when it is one already. */
  team: AdminTeam | null;
  onClose: () => void;
}

/**
 * Makes a phone account a team account, or changes one: its member seats, routing (manual or
 * automatic) and the capacity per seat. A member left out hands its chats back to the queue, or
 * to a member the owner picks when it holds any.
 */
export function TeamDialog({ account, team, onClose }: Props) {
  if (!account) return null;
  return <TeamForm key={account.account_id} account={account} team={team} onClose={onClose} />;
}

function TeamForm({ account, team, onClose }: Props & { account: TeamSubject }) {
  const { t } = useTranslation('admin');
  const [members, setMembers] = useState<string[]>(
    team
      ? team.members.map((m) => String(m.seat_id))
      : account.seat_id !== null
        ? [String(account.seat_id)]
        : [],
  );
  // The names of the members chosen so far (the search shows only the seats it found).
  const [known, setKnown] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      team
        ? team.members.map((m) => [String(m.seat_id), `${m.account} (${m.nickname})`])
        : account.seat_id !== null && account.seat_account
          ? [[String(account.seat_id), account.seat_account]]
          : [],
    ),
  );
  const [routing, setRouting] = useState<TeamRouting>(team?.routing ?? 'manual');
  const [capacity, setCapacity] = useState<number>(team?.capacity ?? 10);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [receiver, setReceiver] = useState<string>(TO_QUEUE);
  const [search, setSearch] = useState('');
  const [keyword] = useDebouncedValue(search.trim(), 250);
  const seats = useInfiniteQuery(seatsQuery({ keyword: keyword || undefined, status: 'active' }));
  const found = rowsOf(seats.data).map((s) => ({
    value: String(s.seat_id),
    label: `${s.account} (${s.nickname})`,
  }));
  const data = [
    ...members
      .filter((id) => !found.some((f) => f.value === id))
      .map((id) => ({ value: id, label: known[id] ?? `#${id}` })),
    ...found,
  ];
  // Members removed who hold chats: the owner says who receives them (or the queue).
  const leaving = (team?.members ?? []).filter(
    (m) => m.open_chats > 0 && !members.includes(String(m.seat_id)),
  );
  const frozen = new Set((team?.members ?? []).filter((m) => m.frozen).map((m) => m.seat_id));
  const candidates = members
    .filter((id) => !frozen.has(Number(id)))
    .map((id) => ({ value: id, label: known[id] ?? `#${id}` }));
  const receiverId =
    leaving.length > 0 && candidates.some((c) => c.value === receiver) ? Number(receiver) : null;
  const action = useAdminAction(
    () =>
      callAdmin(
        '/v1/admin/teams/set',
        {
          account_id: account.account_id,
          routing,
          capacity,
          member_ids: members.map(Number),
          ...(receiverId !== null ? { receiver_id: receiverId } : {}),
        },
        { notify: false },
      ),
    ['accounts', 'seats', 'audit'],
  );
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (members.length === 0) return setInvalid(t('teams.invalid.members'));
    const done = await action.submit();
    if (!done) return;
    if (done.queued_chats > 0)
      notifications.show({ message: t('teams.queued', { count: done.queued_chats }) });
    if (done.handed_chats > 0)
      notifications.show({
        message: t('teams.handed', {
          count: done.handed_chats,
          name: known[String(receiverId)] ?? `#${receiverId}`,
        }),
      });
    onClose();
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(team ? 'teams.editTitle' : 'teams.makeTitle', { phone: account.send_phone })}
      centered
      size="lg"
    >
      <form onSubmit={submit} noValidate data-testid="team-dialog">
        <Stack>
          <Text size="sm" c="dimmed">
            {t('teams.explain')}
          </Text>
          <MultiSelect
            label={t('teams.fields.members')}
            placeholder={t('accounts.fields.seatSearch')}
            searchable
            data={data}
            value={members}
            onChange={(v) => {
              setMembers(v);
              setInvalid(null);
              setKnown((k) => ({
                ...k,
                ...Object.fromEntries(
                  found.filter((f) => v.includes(f.value)).map((f) => [f.value, f.label]),
                ),
              }));
            }}
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options }) => options}
            maxValues={TEAM_MEMBERS_MAX}
            error={invalid}
            nothingFoundMessage={seats.isPending ? t('loading') : t('accounts.fields.noSeat')}
            comboboxProps={{ withinPortal: true }}
            data-testid="team-members"
          />
          <TeamReceiverField
            leaving={leaving}
            candidates={candidates}
            value={receiverId === null ? TO_QUEUE : receiver}
            onChange={setReceiver}
          />
          <div>
            <Text size="sm" fw={500} id="team-routing-label" mb={4}>
              {t('teams.fields.routing')}
            </Text>
            <SegmentedControl
              value={routing}
              onChange={(v) => setRouting(v as TeamRouting)}
              aria-labelledby="team-routing-label"
              data={[
                { value: 'manual', label: t('teams.routing.manual') },
                { value: 'automatic', label: t('teams.routing.automatic') },
              ]}
              data-testid="team-routing"
            />
            <Text size="xs" c="dimmed" mt={4}>
              {t(`teams.routingHint.${routing}`)}
            </Text>
          </div>
          <NumberInput
            label={t('teams.fields.capacity')}
            description={t('teams.fields.capacityHint')}
            min={1}
            max={TEAM_CAPACITY_MAX}
            clampBehavior="strict"
            allowDecimal={false}
            value={capacity}
            onChange={(v) => setCapacity(typeof v === 'number' ? v : 1)}
            data-testid="team-capacity"
            w={200}
          />
          <ActionAlert error={action.error} />
          <DialogButtons busy={action.busy} onClose={onClose} testId="team-submit" />
        </Stack>
      </form>
    </Modal>
  );
}
