import { createStore } from '../../../lib/create-store';
import type { StorageLike } from '../../../lib/storage';

/**
 * The administrator's login, kept apart from the seat's `userInfo`: a seat's logout (which
 * clears the spec's stored items) leaves it alone, and the seat console never reads it.
 */
export const ADMIN_STORAGE_KEY = 'parleyAdmin';

export interface AdminLogin {
  token: string;
  account: string;
  /** When the token stops working (epoch ms). */
  expires_at: number;
}

function backing(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function isLogin(value: unknown): value is AdminLogin {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.token === 'string' && v.token !== '' && typeof v.account === 'string';
}

export function readAdminLogin(store: StorageLike | null = backing()): AdminLogin | null {
  const raw = store?.getItem(ADMIN_STORAGE_KEY);
  if (raw == null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isLogin(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function writeAdminLogin(login: AdminLogin, store: StorageLike | null = backing()): void {
  try {
    store?.setItem(ADMIN_STORAGE_KEY, JSON.stringify(login));
  } catch {
    // Quota or privacy mode: this page keeps working until it is reloaded.
  }
  adminLoginStore.set(login);
}

export function clearAdminLogin(store: StorageLike | null = backing()): void {
  store?.removeItem(ADMIN_STORAGE_KEY);
  adminLoginStore.set(null);
}

export function readAdminToken(store: StorageLike | null = backing()): string | null {
  return readAdminLogin(store)?.token ?? null;
}

/** The current login, for the header; follows writes and clears made on this page. */
export const adminLoginStore = createStore<AdminLogin | null>(readAdminLogin());

/** Set when a call or the push socket finds the admin token ended (400002). */
export const adminExpiredStore = createStore(false);
