import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Label } from '@parley/protocol';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { answerCalls, sentCalls } from '../../../test/server-calls';
import { consoleStore, setLabelFilter } from '../../../stores/console.store';
import { LabelFilter } from './label-filter';

/** The chat list's label filter (issue 35). */
const VIP: Label = { label_id: 1, name: 'VIP', color: 'green' };
const LEAD: Label = { label_id: 2, name: 'Lead', color: 'blue' };

beforeAll(loadStrings);
beforeEach(() => setLabelFilter(0));

describe('LabelFilter', () => {
  it('lists the owner’s labels and sets the list’s filter to the one chosen', async () => {
    answerCalls({ '/v1/seat/label/list': { data: { labels: [LEAD, VIP] } } });
    renderWithProviders(<LabelFilter />);
    const filter = await screen.findByRole('combobox', { name: 'Filter by label' });
    expect((filter as HTMLInputElement).value).toBe('All labels');
    await userEvent.click(filter);
    await userEvent.click(await screen.findByRole('option', { name: 'VIP' }));
    expect(consoleStore.get().labelFilter).toBe(1);
    expect((filter as HTMLInputElement).value).toBe('VIP');
    // Cut with "…" where the list is narrow, whole in the title.
    expect(filter.getAttribute('title')).toBe('VIP');
  });

  it('is not shown while the owner has defined no label', async () => {
    answerCalls({ '/v1/seat/label/list': { data: { labels: [] } } });
    renderWithProviders(<LabelFilter />);
    await waitFor(() => expect(sentCalls('/v1/seat/label/list')).toHaveLength(1));
    expect(screen.queryByTestId('label-filter')).toBeNull();
  });
});
