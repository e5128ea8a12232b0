import { clearOnLogout } from './storage';

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

/** Logs out without a reload: used when /login is visited. */
export function logoutInPlace(): void {
  clearStorage();
  listeners.forEach((l) => l());
}

/** Logs out and reloads to the root (spec section 4). */
export function logoutAndReload(): void {
  clearStorage();
  window.location.assign('/');
}
