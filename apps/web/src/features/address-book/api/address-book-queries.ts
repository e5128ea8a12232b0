import {
  infiniteQueryOptions,
  keepPreviousData,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { AddressBookEntry, CallResponse } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

export type AddressBookPage = CallResponse<'/v1/seat/chat/addressBook'>;

/** Every customer of the seat by number, filtered by number, remark or name; keyset-paged. */
export function addressBookQuery(keyword: string) {
  return infiniteQueryOptions({
    queryKey: ['addressBook', keyword] as const,
    queryFn: ({ pageParam, signal }) =>
      callApi(
        '/v1/seat/chat/addressBook',
        { keyword: keyword || undefined, cursor: pageParam ?? undefined },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // While a new keyword loads, the list keeps the previous results instead of a spinner.
    placeholderData: keepPreviousData,
  });
}

export function saveRemark(sessionId: number, remark: string) {
  return callApi('/v1/seat/chat/set_remark', { session_id: sessionId, remark }, { notify: false });
}

/** Shows a saved remark in every cached page of the book at once. */
export function applyRemark(qc: QueryClient, sessionId: number, remark: string): void {
  qc.setQueriesData<InfiniteData<AddressBookPage>>({ queryKey: ['addressBook'] }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            list: p.list.map((e: AddressBookEntry) =>
              e.session_id === sessionId ? { ...e, remark } : e,
            ),
          })),
        }
      : data,
  );
}
