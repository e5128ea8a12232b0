import { PHONE_PATTERN, SANDBOX_KEY_PATTERN } from '@parley/protocol';
import type { StorageLike } from '../../lib/storage';

/** Where this browser keeps its sandbox key (not a console item: logout leaves it). */
export const SANDBOX_KEY_ITEM = 'sandboxKey';
/** And the customer number it offers first. */
export const SANDBOX_CUSTOMER_ITEM = 'sandboxCustomer';

function backing(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomCustomer(): string {
  const digits = crypto.getRandomValues(new Uint8Array(6)).map((b) => b % 10);
  return `+447700${digits.join('')}`;
}

// Without storage (a private window that refuses it), values last as long as the page.
const inMemory = new Map<string, string>();

/** The kept value of `item` when `valid`, else a new one made and kept. */
function keptOrMade(
  store: StorageLike | null,
  item: string,
  valid: (v: string) => boolean,
  make: () => string,
): string {
  try {
    const kept = store ? store.getItem(item) : (inMemory.get(item) ?? null);
    if (kept && valid(kept)) return kept;
  } catch {
    /* unreadable storage: a value of the page's own below */
  }
  const value = make();
  try {
    if (store) store.setItem(item, value);
    else inMemory.set(item, value);
  } catch {
    /* full or refused: still this page's value */
  }
  return value;
}

/**
 * This browser's sandbox key, made once: the server binds each customer number to the first
 * key that plays it, so the customers this browser played stay its own.
 */
export function sandboxKey(store: StorageLike | null = backing()): string {
  return keptOrMade(store, SANDBOX_KEY_ITEM, (v) => SANDBOX_KEY_PATTERN.test(v), randomKey);
}

/**
 * The customer number the page offers first: random per browser (a number every browser
 * offered would belong to the first one that opened the page) and kept, so it stays this
 * browser's across reloads.
 */
export function defaultCustomer(store: StorageLike | null = backing()): string {
  return keptOrMade(store, SANDBOX_CUSTOMER_ITEM, (v) => PHONE_PATTERN.test(v), randomCustomer);
}
