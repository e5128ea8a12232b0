import { onStorageClear } from '../../../lib/login-session';
import type { LocalMessage } from '../local-messages.store';
import { fromStored, toStored } from './outbox-logic';
import { outboxBacking as backing, outboxKey } from './outbox-keys';

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

// Logout removes the stored outboxes (outbox-keys.ts); what this tab last wrote is forgotten.
onStorageClear(() => {
  lastWritten = new Map();
});
