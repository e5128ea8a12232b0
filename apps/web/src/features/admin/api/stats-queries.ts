import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { StatsBucket, StatsSeries } from '@parley/protocol';
import { callAdmin } from './admin-client';

export type StatsRange = 'today' | '7d' | '30d';
const DAYS: Record<StatsRange, number> = { today: 1, '7d': 7, '30d': 30 };

/** The browser's IANA time zone: the charts' hours and days are the owner's. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** 'YYYY-MM-DD' of a local day of the zone. */
export function localDay(timeZone: string, at: number): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

export interface StatsParams {
  timeZone: string;
  from: string;
  to: string;
  seatId: number | null;
}

/** Today, or the last 7 or 30 local days up to today. */
export function rangeParams(
  range: StatsRange,
  seatId: number | null,
  now = Date.now(),
  timeZone = browserTimeZone(),
): StatsParams {
  const to = localDay(timeZone, now);
  const from = new Date(Date.parse(to) - (DAYS[range] - 1) * 86_400_000).toISOString().slice(0, 10);
  return { timeZone, from, to, seatId };
}

export const statsKeys = {
  all: () => ['admin', 'stats'] as const,
  series: (p: StatsParams) => ['admin', 'stats', 'series', p] as const,
  seat: (p: StatsParams) => ['admin', 'stats', 'seat', p] as const,
};

const body = (p: StatsParams) => ({
  time_zone: p.timeZone,
  from: p.from,
  to: p.to,
  ...(p.seatId === null ? {} : { seat_id: p.seatId }),
});

export const statsSeriesQuery = (p: StatsParams) =>
  queryOptions({
    queryKey: statsKeys.series(p),
    queryFn: ({ signal }) => callAdmin('/v1/admin/stats/series', body(p), { signal }),
    // Kept current by the overview's pushes (refreshStats), one bucket at a time.
    staleTime: Infinity,
  });

export const seatStatsQuery = (p: StatsParams & { seatId: number }) =>
  queryOptions({
    queryKey: statsKeys.seat(p),
    queryFn: ({ signal }) =>
      callAdmin('/v1/admin/stats/seat', { ...body(p), seat_id: p.seatId }, { signal }),
    staleTime: 30_000,
  });

/** The fetched buckets in place of the cached ones with the same start; later ones appended. */
export function mergeBuckets(cached: StatsBucket[], fresh: StatsBucket[]): StatsBucket[] {
  const byStart = new Map(fresh.map((b) => [b.start, b]));
  const merged = cached.map((b) => byStart.get(b.start) ?? b);
  const last = cached.length ? cached[cached.length - 1]!.start : -Infinity;
  return [...merged, ...fresh.filter((b) => b.start > last)];
}

/**
 * An overview was pushed: every series on screen refetches only its current bucket (the one
 * `at` falls in; the buckets before it cannot change but for a late delivery) and merges it.
 */
export async function refreshStats(client: QueryClient, at: number): Promise<void> {
  const cached = client.getQueriesData<StatsSeries>({ queryKey: [...statsKeys.all(), 'series'] });
  await Promise.all(
    cached.map(async ([key, data]) => {
      if (!data) return;
      const p = key[3] as StatsParams;
      const current = data.buckets.findLast((b) => b.start <= at);
      if (!current || at >= data.buckets[data.buckets.length - 1]!.end) return;
      const fresh = await callAdmin(
        '/v1/admin/stats/series',
        { ...body(p), since: current.start },
        { notify: false },
      );
      client.setQueryData<StatsSeries>(key, (old) =>
        old ? { ...old, at: fresh.at, buckets: mergeBuckets(old.buckets, fresh.buckets) } : old,
      );
    }),
  );
}

/**
 * An overview was pushed: an open seat dialog's busiest hours and longest waits are read again
 * (whole: one small call), so they agree with its charts, which follow bucket by bucket.
 */
export function refreshSeatStats(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: [...statsKeys.all(), 'seat'] });
}
