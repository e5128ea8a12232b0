import { useCallback, useMemo, type ComponentProps, type Key, type ReactNode } from 'react';
import { Center, Loader, Table, Text } from '@mantine/core';
import { TableVirtuoso, type TableComponents } from 'react-virtuoso';

export interface AdminColumn<T> {
  key: string;
  header: ReactNode;
  /** CSS width (the table lays out fixed: columns do not jump while rows scroll by). */
  width?: number | string;
  render: (row: T) => ReactNode;
}

interface Props<T> {
  /** The table's accessible name (what it lists). */
  label: string;
  testId: string;
  rows: T[];
  /** Every row matching the filters (aria-rowcount: only the visible rows are in the DOM). */
  total: number;
  columns: AdminColumn<T>[];
  rowKey: (row: T) => Key;
  rowTestId?: (row: T) => string;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  loading: boolean;
  empty: ReactNode;
  /**
   * The narrowest the table lays out (px): on a narrower screen it scrolls sideways within
   * itself, so no header runs into the next nor a count is cut (percent widths are of this).
   */
  minWidth?: number;
}

type RowContext = { rowTestId?: (row: unknown) => string };

/**
 * The admin console's tables: a real <table> (headers, rows, cells for screen readers) of which
 * only the rows on screen are rendered (react-virtuoso), the header kept in view, the next page
 * loaded at the end; thousands of seats or audit rows scroll as smoothly as ten.
 */
export function AdminTable<T>({
  label,
  testId,
  rows,
  total,
  columns,
  rowKey,
  rowTestId,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  loading,
  empty,
  minWidth = 1000,
}: Props<T>) {
  const endReached = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const components = useMemo<TableComponents<T, RowContext>>(
    () => ({
      Table: (props: ComponentProps<'table'>) => (
        <Table
          {...props}
          highlightOnHover
          aria-label={label}
          aria-rowcount={total + 1}
          style={{ ...props.style, tableLayout: 'fixed', width: '100%', minWidth }}
        />
      ),
      TableHead: (props) => <Table.Thead {...props} style={{ ...props.style, zIndex: 1 }} />,
      TableBody: (props) => <Table.Tbody {...props} />,
      TableRow: ({ item, context, ...props }) => (
        <Table.Tr
          {...props}
          aria-rowindex={Number(props['data-index']) + 2}
          data-testid={context?.rowTestId?.(item)}
        />
      ),
    }),
    [label, total, minWidth],
  );

  if (loading) {
    return (
      <Center flex={1}>
        <Loader aria-label={label} />
      </Center>
    );
  }
  if (rows.length === 0) return <Center flex={1}>{empty}</Center>;

  return (
    // The rest of the page's height, but never less than a screenful of rows: above the table
    // (the team cards on a phone) may take the whole height, and then the page scrolls.
    <div style={{ flex: 1, minHeight: 'min(24rem, 60dvh)' }} data-testid={testId}>
      <TableVirtuoso<T, RowContext>
        style={{ height: '100%' }}
        data={rows}
        context={{ rowTestId: rowTestId as RowContext['rowTestId'] }}
        components={components}
        computeItemKey={(_, row) => rowKey(row)}
        endReached={endReached}
        increaseViewportBy={300}
        fixedHeaderContent={() => (
          <Table.Tr aria-rowindex={1} style={{ background: 'var(--mantine-color-body)' }}>
            {columns.map((c) => (
              // A header wraps between its words, never inside one.
              <Table.Th
                key={c.key}
                style={{ width: c.width, whiteSpace: 'normal', overflowWrap: 'normal' }}
                scope="col"
              >
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        )}
        itemContent={(_, row) =>
          columns.map((c) => (
            // A long value (numbers, a list of phones) wraps rather than being cut.
            <Table.Td key={c.key} style={{ overflow: 'hidden', overflowWrap: 'anywhere' }}>
              {c.render(row)}
            </Table.Td>
          ))
        }
      />
      {isFetchingNextPage && (
        <Center p={4}>
          <Text size="xs" c="dimmed">
            <Loader size="xs" />
          </Text>
        </Center>
      )}
    </div>
  );
}
