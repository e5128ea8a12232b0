import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The id of the HTTP request whose work is running, for the work it leaves behind (an outbox
 * row, a push event): stored with it, that work's log lines carry the request's id, whichever
 * instance or loop does it later.
 */
const storage = new AsyncLocalStorage<{ requestId: string }>();

export function currentRequestId(): string | null {
  return storage.getStore()?.requestId ?? null;
}

export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}
