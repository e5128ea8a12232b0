import type { SessionItem } from '@parley/protocol';
import { createStore, useStore } from '../lib/create-store';
import { onLogout } from '../lib/login-session';

/** The chat action dialog open (one at a time), whichever menu or card opened it. */
export type SessionDialog = { kind: 'remark' | 'move' | 'delete'; session: SessionItem } | null;

export const sessionDialogs = createStore<SessionDialog>(null);
onLogout(() => sessionDialogs.set(null));

export function openSessionDialog(kind: 'remark' | 'move' | 'delete', session: SessionItem) {
  sessionDialogs.set({ kind, session });
}

export function closeSessionDialog() {
  sessionDialogs.set(null);
}

export function useSessionDialog(): SessionDialog {
  return useStore(sessionDialogs);
}
