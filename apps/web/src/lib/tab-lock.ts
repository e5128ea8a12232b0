import { TAB_CHECK_DELAY_MS, TAB_CHECK_INTERVAL_MS } from '@parley/protocol';
import type { StorageLike } from './storage';

/** Not one of the spec's user items: the heartbeat of the active tab (kept on logout). */
export const TAB_LOCK_KEY = 'parley.activeTab';
/** A heartbeat older than this belongs to a tab that is gone. */
export const TAB_LOCK_STALE_MS = TAB_CHECK_INTERVAL_MS * 2 + 1_000;
export { TAB_CHECK_DELAY_MS, TAB_CHECK_INTERVAL_MS };

export interface TabLock {
  id: string;
  ts: number;
}

export function parseLock(raw: string | null): TabLock | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<TabLock>;
    return typeof v.id === 'string' && typeof v.ts === 'number' ? { id: v.id, ts: v.ts } : null;
  } catch {
    return null;
  }
}

/** 'own' when this tab may be (or stay) the active one, 'banned' when another tab is. */
export function decideTab(lock: TabLock | null, myId: string, now: number): 'own' | 'banned' {
  if (!lock || lock.id === myId) return 'own';
  if (now - lock.ts > TAB_LOCK_STALE_MS) return 'own';
  return 'banned';
}

/** One check: heartbeat when this tab owns the lock, else report the ban. */
export function checkTab(store: StorageLike, myId: string, now: number): 'own' | 'banned' {
  const verdict = decideTab(parseLock(store.getItem(TAB_LOCK_KEY)), myId, now);
  if (verdict === 'own') claimTab(store, myId, now);
  return verdict;
}

export function claimTab(store: StorageLike, myId: string, now: number): void {
  store.setItem(TAB_LOCK_KEY, JSON.stringify({ id: myId, ts: now } satisfies TabLock));
}

/** Gives the lock up (on unload) so that a reload of the active tab takes it straight back. */
export function releaseTab(store: StorageLike, myId: string): void {
  if (parseLock(store.getItem(TAB_LOCK_KEY))?.id === myId) store.removeItem(TAB_LOCK_KEY);
}

export function newTabId(): string {
  const rand =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID()
      : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `tab-${rand}`;
}
