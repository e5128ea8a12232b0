import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { callAdmin } from './admin-client';

/** Rows per page of the glossary (the table loads the next page at its end). */
const GLOSSARY_PAGE_SIZE = 200;

/** Under the `translation` scope: a pushed change of the glossary or the engines refetches both. */
export const translationKeys = {
  glossary: () => ['admin', 'translation', 'glossary'] as const,
  routes: () => ['admin', 'translation', 'routes'] as const,
};

export const glossaryQuery = () =>
  infiniteQueryOptions({
    queryKey: translationKeys.glossary(),
    queryFn: ({ pageParam, signal }) =>
      callAdmin(
        '/v1/admin/glossary/list',
        { page_size: GLOSSARY_PAGE_SIZE, cursor: pageParam },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });

export const engineRoutesQuery = () =>
  queryOptions({
    queryKey: translationKeys.routes(),
    queryFn: ({ signal }) => callAdmin('/v1/admin/engine_routes/list', {}, { signal }),
  });
