import { clearOnLogout } from './storage';

const listeners = new Set<() => void>();

/** Registers state to forget on logout (query cache, console selection). */
export function onLogout(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Logs out without a reload: used when /login is visited. */
export function logoutInPlace(): void {
  clearOnLogout();
  listeners.forEach((l) => l());
}

/** Logs out and reloads to the root (spec section 4). */
export function logoutAndReload(): void {
  clearOnLogout();
  window.location.assign('/');
}
