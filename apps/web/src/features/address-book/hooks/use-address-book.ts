import { useMemo } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { addressBookQuery } from '../api/address-book-queries';

/** The address book filtered by `keyword`, flattened, with its total. */
export function useAddressBook(keyword: string) {
  const query = useInfiniteQuery(addressBookQuery(keyword));
  const entries = useMemo(() => query.data?.pages.flatMap((p) => p.list) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;
  return { ...query, entries, total };
}
