import { createStore, useStore } from '../../lib/create-store';

/** Messages being translated now ("session:msg"), for the bubble's "Translating…". */
const pending = createStore<ReadonlySet<string>>(new Set());

const keyOf = (sessionId: number, msgId: number) => `${sessionId}:${msgId}`;

export function markPending(sessionId: number, msgIds: readonly number[]): void {
  pending.set((s) => new Set([...s, ...msgIds.map((id) => keyOf(sessionId, id))]));
}

export function unmarkPending(sessionId: number, msgIds: readonly number[]): void {
  const done = new Set(msgIds.map((id) => keyOf(sessionId, id)));
  pending.set((s) => new Set([...s].filter((k) => !done.has(k))));
}

export function isPending(sessionId: number, msgId: number): boolean {
  return pending.get().has(keyOf(sessionId, msgId));
}

export function useIsPending(sessionId: number, msgId: number): boolean {
  return useStore(pending, (s) => s.has(keyOf(sessionId, msgId)));
}
