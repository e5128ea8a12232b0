/** How long a failed chunk download waits before it is tried again. */
export const RETRY_MS = 2000;

/**
 * `load` (a dynamic import) again every RETRY_MS, or at once when the browser is back online,
 * until it succeeds; one promise for every caller. Code asked for while the server cannot be
 * reached (the console works on while it is down: the outbox waits) then arrives once it can,
 * instead of an error that would take the page down.
 */
export function retrying<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  const attempt = (): Promise<T> =>
    load().catch(() =>
      new Promise<void>((resolve) => {
        const again = () => {
          clearTimeout(timer);
          window.removeEventListener('online', again);
          resolve();
        };
        const timer = setTimeout(again, RETRY_MS);
        window.addEventListener('online', again);
      }).then(attempt),
    );
  return () => (pending ??= attempt());
}
