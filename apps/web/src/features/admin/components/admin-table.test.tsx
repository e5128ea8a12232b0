import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { AdminTable, type AdminColumn } from './admin-table';

interface Seat {
  id: number;
  account: string;
  chats: number;
}

const COLUMNS: AdminColumn<Seat>[] = [
  { key: 'account', header: 'Account', render: (s) => s.account },
  { key: 'chats', header: 'Chats', render: (s) => String(s.chats) },
];
const seats = (n: number): Seat[] =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, account: `seat-${i + 1}`, chats: i * 3 }));

function renderTable(patch: Partial<Parameters<typeof AdminTable<Seat>>[0]> = {}) {
  const fetchNextPage = vi.fn();
  renderWithProviders(
    <AdminTable<Seat>
      label="Seats"
      testId="seats-table"
      rows={seats(3)}
      total={3}
      columns={COLUMNS}
      rowKey={(s) => s.id}
      rowTestId={(s) => `seat-row-${s.account}`}
      hasNextPage={false}
      isFetchingNextPage={false}
      fetchNextPage={fetchNextPage}
      loading={false}
      empty={<p>No seats yet</p>}
      {...patch}
    />,
  );
  return { fetchNextPage };
}

beforeAll(loadStrings);

describe('the admin tables', () => {
  it('are a named table with column headers, one row per item and its cells', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Seats' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Account', 'Chats']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['seat-1', '0'],
      ['seat-2', '3'],
      ['seat-3', '6'],
    ]);
    // Screen readers hear the whole count, though only the rows on screen are in the page.
    expect(table.getAttribute('aria-rowcount')).toBe('4');
    expect(rows.map((r) => r.getAttribute('aria-rowindex'))).toEqual(['2', '3', '4']);
    expect(screen.getByTestId('seat-row-seat-2')).toBe(rows[1]);
  });

  it('render only the rows in view of a long list, and ask for the next page at its end', () => {
    const { fetchNextPage } = renderTable({ rows: seats(500), total: 1200, hasNextPage: true });
    const table = screen.getByRole('table', { name: 'Seats' });
    const shown = within(table).getAllByRole('row').length - 1;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(500);
    expect(table.getAttribute('aria-rowcount')).toBe('1201');
    expect(fetchNextPage).not.toHaveBeenCalled();
  });

  it('ask for the next page when the whole page is in view and there is more', () => {
    const { fetchNextPage } = renderTable({ rows: seats(3), total: 10, hasNextPage: true });
    expect(fetchNextPage).toHaveBeenCalledTimes(1);
  });

  it('show what the page says when there is nothing', () => {
    renderTable({ rows: [], total: 0 });
    expect(screen.getByText('No seats yet')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('show a loader named after the table while the first page loads', () => {
    renderTable({ loading: true, rows: [] });
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByLabelText('Seats')).toBeTruthy();
  });
});
