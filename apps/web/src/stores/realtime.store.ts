import { createStore, useStore } from '../lib/create-store';

/** The push socket: null before the first connection, then up (true) or down (false). */
export const realtimeOnline = createStore<boolean | null>(null);

export function useRealtimeOnline(): boolean | null {
  return useStore(realtimeOnline, (s) => s);
}
