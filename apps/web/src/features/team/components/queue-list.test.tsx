import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Label, TeamQueue } from '@parley/protocol';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { answerCalls } from '../../../test/server-calls';
import { QueueList } from './queue-list';

/** The Queue place's rows (issue 35) as a member sees them: each queued chat with its labels. */
const HOSTILE = '<img src=x onerror="window.__queueLabelXss=1">';
const VIP: Label = { label_id: 1, name: 'VIP', color: 'green' };
const EVIL: Label = { label_id: 3, name: HOSTILE, color: 'red' };

const queue = (chats: TeamQueue['chats']): TeamQueue => ({
  account_id: 1,
  send_phone: '+15550000001',
  label: 'Support',
  routing: 'manual',
  count: chats.length,
  oldest_since: chats[0]?.since ?? null,
  chats,
});
const queued = (session_id: number, labels: Label[]): TeamQueue['chats'][number] => ({
  session_id,
  send_phone: '+15550000001',
  receiver_phone: `+1555999000${session_id}`,
  customer_name: `Customer ${session_id}`,
  un_read_count: 0,
  latest_time: 1,
  since: session_id,
  last_message: null,
  labels,
});

beforeAll(loadStrings);

describe('the Queue place’s rows', () => {
  it('shows a queued chat’s labels as chips, a hostile name as text and never as markup', async () => {
    answerCalls({
      '/v1/seat/team/queue': { data: { teams: [queue([queued(4, [EVIL, VIP]), queued(5, [])])] } },
    });
    // The row's Take opens the chat where it lands: a route.
    const { container } = renderWithProviders(
      <MemoryRouter>
        <QueueList />
      </MemoryRouter>,
    );
    const rows = await screen.findAllByTestId('queue-item');
    expect(rows).toHaveLength(2);
    const chips = within(rows[0]!).getAllByTestId('label-chip');
    expect(chips.map((c) => c.textContent)).toEqual([HOSTILE, 'VIP']);
    expect(chips.map((c) => c.getAttribute('data-color'))).toEqual(['red', 'green']);
    expect(container.querySelector('img')).toBeNull();
    expect((window as { __queueLabelXss?: number }).__queueLabelXss).toBeUndefined();
    // A chat without labels shows no chips.
    expect(within(rows[1]!).queryByTestId('queue-item-labels')).toBeNull();
  });
});
