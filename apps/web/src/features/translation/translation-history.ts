import type { TranslationHistoryEntry } from '../../lib/storage';

export type HistoryEntry = TranslationHistoryEntry;

/** Minutes per day: the cache time is stored in minutes and shown in days (7200 min = 5 days). */
export const MINUTES_PER_DAY = 1440;
/**
 * At most this many translations are kept (the oldest go first), so that a busy console
 * never fills the browser's storage (a few hundred bytes each).
 */
export const HISTORY_MAX = 5000;

/** The cache time as whole or fractional days, for the settings text. */
export function cacheDays(minutes: number): number {
  return Math.round((minutes / MINUTES_PER_DAY) * 100) / 100;
}

/** A stored entry as this version writes it; anything else (an older shape) is dropped. */
export function isHistoryEntry(e: unknown): e is HistoryEntry {
  if (!e || typeof e !== 'object') return false;
  const v = e as Record<string, unknown>;
  return (
    typeof v.msg_id === 'number' &&
    typeof v.session_id === 'number' &&
    typeof v.text === 'string' &&
    typeof v.lang === 'string' &&
    typeof v.at === 'number'
  );
}

/** Entries younger than `cacheMinutes` (spec: history older than the cache time is dropped). */
export function dropExpired(
  entries: readonly HistoryEntry[],
  cacheMinutes: number,
  now: number,
): HistoryEntry[] {
  const oldest = now - cacheMinutes * 60_000;
  return entries.filter((e) => e.at > oldest);
}

const sameMessage = (a: HistoryEntry, b: Pick<HistoryEntry, 'session_id' | 'msg_id' | 'lang'>) =>
  a.session_id === b.session_id && a.msg_id === b.msg_id && a.lang === b.lang;

/**
 * The history with fresh translations: one entry per chat, message and language (a newer one
 * replaces the older), oldest first, at most HISTORY_MAX.
 */
export function addEntries(
  entries: readonly HistoryEntry[],
  fresh: readonly HistoryEntry[],
): HistoryEntry[] {
  if (fresh.length === 0) return [...entries];
  const kept = entries.filter((e) => !fresh.some((f) => sameMessage(e, f)));
  const all = [...kept, ...fresh].sort((a, b) => a.at - b.at);
  return all.length > HISTORY_MAX ? all.slice(all.length - HISTORY_MAX) : all;
}

/** The history without its `count` oldest entries (spec: clear the oldest N, or all). */
export function clearOldest(entries: readonly HistoryEntry[], count: number): HistoryEntry[] {
  const n = Math.max(0, Math.floor(count));
  return [...entries].sort((a, b) => a.at - b.at).slice(n);
}

/** The translation of one message of one chat into `lang`, if kept. */
export function findEntry(
  entries: readonly HistoryEntry[],
  sessionId: number,
  msgId: number,
  lang: string,
): HistoryEntry | undefined {
  return entries.find((e) => sameMessage(e, { session_id: sessionId, msg_id: msgId, lang }));
}
