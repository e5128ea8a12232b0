import { callApi } from './api-client';
import { clearOnLogout, readToken } from './storage';

/**
 * How long logout waits for the server to end the login. Past it (or when the server cannot
 * be reached) the console logs out locally all the same: leaving must never hang.
 */
export const LOGOUT_TIMEOUT_MS = 3000;

const listeners = new Set<() => void>();
const clearers = new Set<() => void>();

/**
 * Registers local storage of a feature (beyond the spec's stored items) to clear on every
 * logout, the reloading one included: logout clears all local storage but the translation
 * settings (spec section 4).
 */
export function onStorageClear(clear: () => void): () => void {
  clearers.add(clear);
  return () => clearers.delete(clear);
}

function clearStorage(): void {
  clearOnLogout();
  clearers.forEach((c) => c());
}

/** Registers state to forget on logout (query cache, console selection). */
export function onLogout(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Ends the stored login on the server, best effort: a token already ended (400002), an
 * unreachable server or a slow one (LOGOUT_TIMEOUT_MS) does not stop the local logout.
 */
async function endLoginOnServer(): Promise<void> {
  if (!readToken()) return;
  try {
    await callApi(
      '/v1/seat/chat/logout',
      {},
      { notify: false, expiredDialog: false, signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS) },
    );
  } catch {
    // Logged out here anyway; the token ends at its expiry at the latest.
  }
}

/** Logs out without a reload: used when /login is visited. */
export function logoutInPlace(): void {
  // The request carries the token it read before the storage is cleared below.
  void endLoginOnServer();
  clearStorage();
  listeners.forEach((l) => l());
}

/** Logs out (on the server too, best effort) and reloads to the root (spec section 4). */
export async function logoutAndReload(): Promise<void> {
  await endLoginOnServer();
  clearStorage();
  window.location.assign('/');
}

/**
 * Log out of every device: ends all the seat's logins on the server, this one included, then
 * logs out here. Unlike a plain logout it needs the server's answer (the operator relies on
 * the other devices being signed out): a failure throws (with its toast) and nothing changes.
 */
export async function logoutEverywhereAndReload(): Promise<void> {
  await callApi('/v1/seat/chat/logout', { all_devices: true });
  clearStorage();
  window.location.assign('/');
}
