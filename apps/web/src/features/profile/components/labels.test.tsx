import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Label } from '@parley/protocol';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { answerCalls, sentCalls } from '../../../test/server-calls';
import { sessionItem } from '../../../test/builders';
import { relabel } from '../../labels/api/labels-api';
import { LabelChips } from '../../../components/label-chips';
import { LabelPicker } from './label-picker';

/** Labels (issue 35) as an operator sees them: chips, the list's filter, the profile's picker. */
const HOSTILE = '<img src=x onerror="window.__labelXss=1">';
const VIP: Label = { label_id: 1, name: 'VIP', color: 'green' };
const LEAD: Label = { label_id: 2, name: 'Lead', color: 'blue' };
const EVIL: Label = { label_id: 3, name: HOSTILE, color: 'red' };

beforeAll(loadStrings);

describe('LabelChips', () => {
  it('shows each label by name, a hostile name as text and never as markup', () => {
    const { container } = renderWithProviders(<LabelChips labels={[VIP, EVIL]} />);
    const chips = screen.getAllByTestId('label-chip');
    expect(chips.map((c) => c.textContent)).toEqual(['VIP', HOSTILE]);
    expect(chips[1]!.getAttribute('data-color')).toBe('red');
    expect(container.querySelector('img')).toBeNull();
    expect((window as { __labelXss?: number }).__labelXss).toBeUndefined();
  });

  it('shows nothing for a chat without labels', () => {
    const { container } = renderWithProviders(<LabelChips labels={[]} />);
    expect(container.querySelector('[data-testid="label-chips"]')).toBeNull();
  });
});

describe('LabelPicker', () => {
  it('shows the customer’s labels and sends the whole new set when one is added', async () => {
    answerCalls({
      '/v1/seat/label/list': { data: { labels: [LEAD, VIP] } },
      '/v1/seat/label/set': (body) => ({
        data: {
          session_id: 7,
          labels: (body.label_ids as number[]).map((id) => (id === 1 ? VIP : LEAD)),
        },
      }),
    });
    renderWithProviders(<LabelPicker user={sessionItem(7, { labels: [VIP] })} />);
    const shown = screen.getByTestId('profile-labels');
    expect(within(shown).getByText('VIP').textContent).toBe('VIP');
    await userEvent.click(await screen.findByRole('combobox', { name: 'Choose labels' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Lead' }));
    await waitFor(() => expect(sentCalls('/v1/seat/label/set')).toHaveLength(1));
    expect(sentCalls('/v1/seat/label/set')[0]!.body).toEqual({ session_id: 7, label_ids: [1, 2] });
  });
});

describe('relabel (labels.changed)', () => {
  it('renames and recolours by id and drops a deleted label', () => {
    const now = [{ ...VIP, name: 'Gold', color: 'yellow' as const }];
    expect(relabel([VIP, LEAD], now)).toEqual(now);
  });
});
