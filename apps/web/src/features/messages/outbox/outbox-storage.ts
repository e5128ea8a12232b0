import type { StorageLike } from '../../../lib/storage';
import { onStorageClear } from '../../../lib/login-session';
import type { LocalMessage } from '../local-messages.store';
import { fromStored, toStored } from './outbox-logic';

/**
 * Unsent messages are kept per seat under `outbox:<seat_id>` (JSON, see StoredOutbox), so a
 * reload never loses what the operator typed. Logout clears them with the rest of local
 * storage (spec section 4); docs/decisions/2026-11-23-outbox.md.
 */
export const OUTBOX_KEY_PREFIX = 'outbox:';
export const outboxKey = (seatId: number) => `${OUTBOX_KEY_PREFIX}${seatId}`;

function backing(): (StorageLike & Pick<Storage, 'key' | 'length'>) | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function loadOutbox(seatId: number): LocalMessage[] {
  try {
    return fromStored(backing()?.getItem(outboxKey(seatId)) ?? null);
  } catch {
    return [];
  }
}

let lastWritten = new Map<number, string>();

/** Writes the seat's unsent messages (skipped when nothing changed; removed when none). */
export function saveOutbox(seatId: number, locals: readonly LocalMessage[]): void {
  const store = backing();
  if (!store) return;
  const outbox = toStored(locals);
  const raw = outbox.items.length > 0 ? JSON.stringify(outbox) : '';
  if (lastWritten.get(seatId) === raw) return;
  try {
    if (raw) store.setItem(outboxKey(seatId), raw);
    else store.removeItem(outboxKey(seatId));
    lastWritten.set(seatId, raw);
  } catch {
    // Quota or privacy mode: the messages still go out from memory.
  }
}

/** Removes every seat's outbox (logout clears all local storage but the translation settings). */
export function clearOutboxes(): void {
  const store = backing();
  lastWritten = new Map();
  if (!store) return;
  const keys: string[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key?.startsWith(OUTBOX_KEY_PREFIX)) keys.push(key);
  }
  keys.forEach((k) => store.removeItem(k));
}

onStorageClear(clearOutboxes);
