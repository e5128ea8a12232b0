import { useCallback, useMemo, type Key, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { Virtuoso } from 'react-virtuoso';

interface Props<T> {
  items: T[];
  itemKey: (item: T) => Key;
  renderItem: (item: T) => ReactNode;
  /** From an infinite query: the next page loads when the end is scrolled to. */
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  /** Pixels rendered beyond the viewport. */
  overscan?: number;
  /** Told each time rows are rendered (with how many). */
  onRowsRendered?: (count: number) => void;
}

/**
 * The console's virtualised, paged list (user list, address book, search results): only the
 * rows on screen are rendered; a small loader shows under the last row while the next page loads.
 */
export function PagedVirtualList<T>({
  items,
  itemKey,
  renderItem,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  overscan = 200,
  onRowsRendered,
}: Props<T>) {
  const endReached = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const components = useMemo(
    () => ({
      Footer: () =>
        isFetchingNextPage ? (
          <Center p="xs">
            <Loader size="xs" />
          </Center>
        ) : null,
    }),
    [isFetchingNextPage],
  );
  return (
    <Virtuoso
      style={{ height: '100%' }}
      data={items}
      computeItemKey={(_, item) => itemKey(item)}
      itemContent={(_, item) => renderItem(item)}
      endReached={endReached}
      increaseViewportBy={overscan}
      components={components}
      itemsRendered={onRowsRendered ? (rendered) => onRowsRendered(rendered.length) : undefined}
    />
  );
}
