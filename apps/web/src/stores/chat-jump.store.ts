import { createStore, useStore } from '../lib/create-store';
import { onLogout } from '../lib/login-session';
import { consoleStore } from './console.store';

/**
 * A chat opened at one message (a search hit) instead of at its newest page. `seq` tells two
 * jumps to the same message apart, so clicking the hit again re-centres the list on it.
 */
export interface ChatJump {
  sessionId: number;
  msgId: number;
  seq: number;
}

export const chatJumpStore = createStore<ChatJump | null>(null);
let seq = 0;

export function jumpToMessage(sessionId: number, msgId: number): void {
  seq += 1;
  chatJumpStore.set({ sessionId, msgId, seq });
}

/** Back to the chat's newest messages (after sending from a window, or on another chat). */
export function clearJump(): void {
  chatJumpStore.set(null);
}

/** The jump of this chat, if it was opened at a message. */
export function useChatJump(sessionId: number): ChatJump | null {
  return useStore(chatJumpStore, (j) => (j?.sessionId === sessionId ? j : null));
}

onLogout(clearJump);
// Selecting another chat (user list, tags) opens it as usual: the jump belongs to one visit.
consoleStore.subscribe(() => {
  const jump = chatJumpStore.get();
  if (jump && consoleStore.get().selectedUser?.session_id !== jump.sessionId) clearJump();
});
