import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AdminCallInput, AdminChangeScope, Overview } from '@parley/protocol';
import { callAdmin } from './admin-client';

/** Rows per page of the admin lists (the tables load the next page at their end). */
export const ADMIN_PAGE_SIZE = 200;

export type SeatFilters = Omit<AdminCallInput<'/v1/admin/seats/list'>, 'cursor' | 'page_size'>;
export type AccountFilters = Omit<
  AdminCallInput<'/v1/admin/accounts/list'>,
  'cursor' | 'page_size'
>;
export type AuditFilters = Omit<AdminCallInput<'/v1/admin/audit/list'>, 'cursor' | 'page_size'>;
export type OutboxFilters = Omit<AdminCallInput<'/v1/admin/outbox/list'>, 'cursor' | 'page_size'>;

/** Every key of the admin area starts with its scope, so a pushed `admin.changed` refetches it. */
export const adminKeys = {
  seats: (f: SeatFilters) => ['admin', 'seats', f] as const,
  accounts: (f: AccountFilters) => ['admin', 'accounts', f] as const,
  audit: (f: AuditFilters) => ['admin', 'audit', f] as const,
  outbox: (f: OutboxFilters) => ['admin', 'outbox', f] as const,
  overview: () => ['admin', 'overview'] as const,
  me: () => ['admin', 'me'] as const,
  scope: (scope: AdminChangeScope) => ['admin', scope] as const,
};

const nextCursor = (page: { next_cursor: string | null }) => page.next_cursor ?? undefined;

export const seatsQuery = (filters: SeatFilters) =>
  infiniteQueryOptions({
    queryKey: adminKeys.seats(filters),
    queryFn: ({ pageParam, signal }) =>
      callAdmin(
        '/v1/admin/seats/list',
        { ...filters, page_size: ADMIN_PAGE_SIZE, cursor: pageParam },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
  });

export const accountsQuery = (filters: AccountFilters) =>
  infiniteQueryOptions({
    queryKey: adminKeys.accounts(filters),
    queryFn: ({ pageParam, signal }) =>
      callAdmin(
        '/v1/admin/accounts/list',
        { ...filters, page_size: ADMIN_PAGE_SIZE, cursor: pageParam },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
  });

export const auditQuery = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: adminKeys.audit(filters),
    queryFn: ({ pageParam, signal }) =>
      callAdmin(
        '/v1/admin/audit/list',
        { ...filters, page_size: ADMIN_PAGE_SIZE, cursor: pageParam },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
  });

export const outboxQuery = (filters: OutboxFilters) =>
  infiniteQueryOptions({
    queryKey: adminKeys.outbox(filters),
    queryFn: ({ pageParam, signal }) =>
      callAdmin(
        '/v1/admin/outbox/list',
        { ...filters, page_size: ADMIN_PAGE_SIZE, cursor: pageParam },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
  });

/** The browser's UTC offset in minutes (UTC+3: 180): "today" of the overview is local. */
export const tzOffsetMin = (now = new Date()) => -now.getTimezoneOffset();

export const overviewQuery = () =>
  queryOptions({
    queryKey: adminKeys.overview(),
    queryFn: ({ signal }) =>
      callAdmin('/v1/admin/overview', { tz_offset_min: tzOffsetMin() }, { signal }),
    // Kept fresh by the push socket (admin.overview), not by polling.
    staleTime: Infinity,
  });

/** A pushed overview replaces the cached one (no request). */
export function setOverview(client: QueryClient, overview: Overview): void {
  client.setQueryData(adminKeys.overview(), overview);
}

/** Lists another administrator (or the CLI, or presence) changed: refetch what is shown. */
export function refetchScopes(client: QueryClient, scopes: readonly AdminChangeScope[]): void {
  for (const scope of scopes) void client.invalidateQueries({ queryKey: adminKeys.scope(scope) });
}

/** The rows of every page loaded so far. */
export function rowsOf<T>(data: { pages: { list: T[] }[] } | undefined): T[] {
  return data?.pages.flatMap((p) => p.list) ?? [];
}

/**
 * Team accounts (issue 35): each team's members, routing, capacity and figures (queue length,
 * oldest wait, open chats per member). Under the accounts scope: a change refetches it, and the
 * queue moves without an admin action, so it is read again every 15 s while shown.
 */
export const teamsQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.scope('accounts'), 'teams'] as const,
    queryFn: ({ signal }) => callAdmin('/v1/admin/teams/list', {}, { signal }),
    refetchInterval: 15_000,
  });
