import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminLabel } from '@parley/protocol';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { answerCalls, sentCalls } from '../../../test/server-calls';
import { LabelsSection } from './labels-section';

/**
 * The owner's labels (issue 35): one row each, its name shown as text, renamed in its row; a
 * name another label has is refused with its message at the field, and nothing else is sent.
 */
const HOSTILE = '<img src=x onerror=alert(1)>';
const LABELS: AdminLabel[] = [
  { label_id: 1, name: 'VIP', color: 'green', chats: 3 },
  { label_id: 2, name: HOSTILE, color: 'red', chats: 0 },
];

beforeAll(loadStrings);

describe('LabelsSection', () => {
  it('lists each label as a row, its name as text, with its chats', async () => {
    answerCalls({ '/v1/admin/labels/list': { data: { labels: LABELS } } });
    renderWithProviders(<LabelsSection />);
    const rows = await screen.findAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTestId('label-row-chats').textContent).toBe('Chats: 3');
    // Markup in a name is its text: no element made of it.
    expect(within(rows[1]!).getByTestId('label-chip').textContent).toBe(HOSTILE);
    expect(rows[1]!.querySelector('img')).toBeNull();
  });

  it('saves a rename, and shows a name clash (409006) at the field', async () => {
    answerCalls({
      '/v1/admin/labels/list': { data: { labels: LABELS } },
      '/v1/admin/labels/update': (body) =>
        body.name === 'Lead'
          ? { code: '409006', msg: 'A label with this name already exists' }
          : { data: { label: { ...LABELS[0], ...body } } },
    });
    renderWithProviders(<LabelsSection />);
    const [row] = await screen.findAllByRole('listitem');
    const name = within(row!).getByTestId('label-row-name') as HTMLInputElement;
    const save = within(row!).getByTestId('label-row-save');
    // Unchanged: nothing to save.
    expect(save.hasAttribute('disabled')).toBe(true);
    await userEvent.clear(name);
    await userEvent.type(name, 'Lead');
    await userEvent.click(save);
    await waitFor(() =>
      expect(within(row!).getByText('A label with this name already exists')).toBeTruthy(),
    );
    expect(sentCalls('/v1/admin/labels/update').map((c) => c.body)).toEqual([
      { label_id: 1, name: 'Lead', color: 'green' },
    ]);
  });
});
