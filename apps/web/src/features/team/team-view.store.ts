import type { SessionItem } from '@parley/protocol';
import { createStore, useStore } from '../../lib/create-store';
import { onLogout } from '../../lib/login-session';
import { consoleStore } from '../../stores/console.store';

/**
 * The console's team places (issue 35): the Queue shown in place of a group's chats, the queued
 * chat looked at before taking it, and the hand-over dialog's chat.
 */
export interface TeamView {
  queueOpen: boolean;
  /** The queued chat shown in the chat pane (it is not the seat's until taken). */
  preview: number | null;
  handOver: SessionItem | null;
  /** The open chat's note box asked for (the N shortcut). */
  noteRequested: number;
}

const initial: TeamView = { queueOpen: false, preview: null, handOver: null, noteRequested: 0 };
export const teamView = createStore<TeamView>(initial);
onLogout(() => teamView.set(initial));

export function useTeamView<S>(select: (s: TeamView) => S): S {
  return useStore(teamView, select);
}

export function openQueue(): void {
  teamView.set((s) => ({ ...s, queueOpen: true }));
}

export function closeQueue(): void {
  teamView.set((s) =>
    s.queueOpen || s.preview !== null ? { ...s, queueOpen: false, preview: null } : s,
  );
}

export function previewQueued(sessionId: number | null): void {
  if (sessionId !== null)
    consoleStore.set((s) => ({ ...s, selectedUser: null, missingChat: null }));
  teamView.set((s) => ({ ...s, preview: sessionId }));
}

export function openHandOver(session: SessionItem | null): void {
  teamView.set((s) => ({ ...s, handOver: session }));
}

export function requestNote(): void {
  teamView.set((s) => ({ ...s, noteRequested: s.noteRequested + 1 }));
}

// A chat opened (from the list, search, a link): the queued chat's preview gives way to it.
consoleStore.subscribe(() => {
  if (consoleStore.get().selectedUser && teamView.get().preview !== null)
    teamView.set((s) => ({ ...s, preview: null }));
});
