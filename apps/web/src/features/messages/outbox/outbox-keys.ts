import type { StorageLike } from '../../../lib/storage';

/**
 * Unsent messages are kept per seat under `outbox:<seat_id>` (JSON, see StoredOutbox), so a
 * reload never loses what the operator typed. Logout clears them with the rest of local
 * storage (spec section 4); docs/decisions/2026-11-23-outbox.md.
 */
export const OUTBOX_KEY_PREFIX = 'outbox:';
export const outboxKey = (seatId: number) => `${OUTBOX_KEY_PREFIX}${seatId}`;

export function outboxBacking(): (StorageLike & Pick<Storage, 'key' | 'length'>) | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * Removes every seat's stored outbox (logout clears all local storage but the translation
 * settings). main.tsx registers it: a logout on /login runs before the console's code loads.
 */
export function clearStoredOutboxes(): void {
  const store = outboxBacking();
  if (!store) return;
  const keys: string[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key?.startsWith(OUTBOX_KEY_PREFIX)) keys.push(key);
  }
  keys.forEach((k) => store.removeItem(k));
}
