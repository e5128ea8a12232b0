import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminTeam } from '@parley/protocol';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { answerCalls, sentCalls } from '../../../test/server-calls';
import { TeamDialog, type TeamSubject } from './team-dialog';
import { TeamReceiverField, TO_QUEUE } from './team-receiver-field';

/**
 * The owner's team dialog when members are removed: who receives the chats they hold is asked
 * (a staying member who is not frozen, or the queue), and what is chosen is what is sent.
 */
const ACCOUNT: TeamSubject = {
  account_id: 7,
  send_phone: '+15550177',
  seat_id: 99,
  seat_account: 'team queue 7',
};
const member = (seat_id: number, account: string, open_chats: number, frozen = false) => ({
  seat_id,
  account,
  nickname: account,
  frozen,
  open_chats,
});
const TEAM: AdminTeam = {
  account_id: 7,
  send_phone: '+15550177',
  label: 'Support',
  routing: 'manual',
  capacity: 5,
  // The one holding chats is last: Backspace in the members' field removes it.
  members: [member(1, 'bo', 0), member(2, 'cy', 0, true), member(3, 'ana', 2)],
  queue_count: 0,
  oldest_since: null,
};
const SET = '/v1/admin/teams/set';

beforeAll(loadStrings);

function open() {
  answerCalls({
    '/v1/admin/seats/list': { data: { list: [], total: 0, next_cursor: null } },
    [SET]: (body) => ({
      data: {
        team: { ...TEAM, members: TEAM.members.filter((m) => m.seat_id !== 3) },
        queued_chats: body.receiver_id ? 0 : 2,
        handed_chats: body.receiver_id ? 2 : 0,
      },
    }),
  });
  const onClose = vi.fn();
  renderWithProviders(<TeamDialog account={ACCOUNT} team={TEAM} onClose={onClose} />);
  return { onClose };
}

/** A field's input (Mantine labels its dropdown's list too). */
const input = (label: string) =>
  screen.getAllByLabelText(label).find((el) => el.tagName === 'INPUT') as HTMLInputElement;

async function removeAna() {
  await userEvent.type(input('Member seats'), '{Backspace}');
}

describe("the team dialog's choice for a removed member's chats", () => {
  it('is not asked while no member holding chats is removed', () => {
    open();
    expect(screen.queryByTestId('team-receiver-field')).toBeNull();
  });

  it('asks when a member with chats is removed; a staying, unfrozen member may receive them', async () => {
    const { onClose } = open();
    await removeAna();
    const field = await screen.findByTestId('team-receiver-field');
    expect(within(field).getByText(/hold open chats of this number/)).toBeTruthy();
    await userEvent.click(input('Their chats go to'));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    // Cy is frozen: not offered; ana is leaving.
    expect(options).toEqual(['Back to the queue', 'bo (bo)']);
    await userEvent.click(screen.getByRole('option', { name: 'bo (bo)' }));
    await userEvent.click(screen.getByTestId('team-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sentCalls(SET).map((c) => c.body)).toEqual([
      { account_id: 7, routing: 'manual', capacity: 5, member_ids: [1, 2], receiver_id: 1 },
    ]);
  });

  it('the queue is the default: no receiver is sent', async () => {
    const { onClose } = open();
    await removeAna();
    await screen.findByTestId('team-receiver-field');
    await userEvent.click(screen.getByTestId('team-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sentCalls(SET)[0]!.body).not.toHaveProperty('receiver_id');
  });
});

describe('TeamReceiverField', () => {
  it('shows nothing without a leaving member holding chats, else the queue and the candidates', async () => {
    const onChange = vi.fn();
    const { rerender } = renderWithProviders(
      <TeamReceiverField leaving={[]} candidates={[]} value={TO_QUEUE} onChange={onChange} />,
    );
    expect(screen.queryByTestId('team-receiver-field')).toBeNull();
    rerender(
      <TeamReceiverField
        leaving={[member(3, 'ana', 2)]}
        candidates={[{ value: '1', label: 'bo (bo)' }]}
        value={TO_QUEUE}
        onChange={onChange}
      />,
    );
    expect(input('Their chats go to').value).toBe('Back to the queue');
    await userEvent.click(input('Their chats go to'));
    await userEvent.click(await screen.findByRole('option', { name: 'bo (bo)' }));
    expect(onChange).toHaveBeenCalledWith('1');
  });
});
