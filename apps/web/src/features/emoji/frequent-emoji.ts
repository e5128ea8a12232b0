import { useSyncExternalStore } from 'react';
import { createStore } from '../../lib/create-store';
import { readItem, type StorageLike } from '../../lib/storage';

/** How many emoji the frequent category shows. */
export const FREQUENT_MAX = 24;

/** Per emoji: how often this operator picked it and when last. */
export type EmojiUsage = Record<string, { n: number; at: number }>;

function backing(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Kept per seat, so operators sharing a browser each see their own. */
export function usageKey(seatId: number | null): string {
  return `emojiUsage:${seatId ?? 'anonymous'}`;
}

export function readUsage(key: string, store: StorageLike | null = backing()): EmojiUsage {
  try {
    const value: unknown = JSON.parse(store?.getItem(key) ?? '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as EmojiUsage) : {};
  } catch {
    return {};
  }
}

/** One more pick of `emoji`; the table keeps at most a few times FREQUENT_MAX entries. */
export function recordUse(usage: EmojiUsage, emoji: string, now: number): EmojiUsage {
  const prev = usage[emoji];
  const next: EmojiUsage = { ...usage, [emoji]: { n: (prev?.n ?? 0) + 1, at: now } };
  const keys = Object.keys(next);
  if (keys.length <= FREQUENT_MAX * 4) return next;
  // Forget the least used (then the oldest) so the table stays small.
  const keep = rank(next).slice(0, FREQUENT_MAX * 2);
  return Object.fromEntries(keep.map((e) => [e, next[e]!]));
}

/** Most picked first; ties go to the most recently picked. */
export function rank(usage: EmojiUsage): string[] {
  return Object.entries(usage)
    .sort(([, a], [, b]) => b.n - a.n || b.at - a.at)
    .map(([emoji]) => emoji);
}

const seatKey = () => usageKey(readItem('userInfo')?.seat_id ?? null);
/** Bumped on every pick, so pickers re-read the stored table. */
const version = createStore(0);
let cache = { key: '', version: -1, list: [] as string[] };

/** The ranked list of the signed-in seat, recomputed only when the seat or the table changed. */
function frequentSnapshot(): string[] {
  const key = seatKey();
  const v = version.get();
  if (cache.key !== key || cache.version !== v) {
    cache = { key, version: v, list: rank(readUsage(key)).slice(0, FREQUENT_MAX) };
  }
  return cache.list;
}

/** The frequent category of the signed-in operator. */
export function useFrequentEmoji(): string[] {
  return useSyncExternalStore(version.subscribe, frequentSnapshot);
}

export function rememberEmoji(emoji: string): void {
  const key = seatKey();
  try {
    backing()?.setItem(key, JSON.stringify(recordUse(readUsage(key), emoji, Date.now())));
  } catch {
    // Quota or privacy mode: nothing to learn from this pick.
  }
  version.set((n) => n + 1);
}
