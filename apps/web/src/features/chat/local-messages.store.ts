import type { ChatMessage } from '@parley/protocol';
import { createStore, useStore } from '../../lib/create-store';
import { onLogout } from '../../lib/session';

/** A message inserted locally before the server has it (the spec's isLocalInsert). */
export interface LocalMessage extends ChatMessage {
  isLocalInsert: true;
  client_msg_id: string;
  /** Needed to resend with the same client_msg_id. */
  send_phone: string;
  receiver_phone: string;
}

type LocalMap = Record<number, LocalMessage[]>;

export const localMessages = createStore<LocalMap>({});
onLogout(() => localMessages.set({}));

const EMPTY: LocalMessage[] = [];

export function useLocalMessages(sessionId: number): LocalMessage[] {
  return useStore(localMessages, (m) => m[sessionId] ?? EMPTY);
}

export function addLocal(msg: LocalMessage): void {
  localMessages.set((m) => ({ ...m, [msg.session_id]: [...(m[msg.session_id] ?? []), msg] }));
}

export function updateLocal(sessionId: number, cid: string, patch: Partial<LocalMessage>): void {
  localMessages.set((m) => ({
    ...m,
    [sessionId]: (m[sessionId] ?? []).map((l) =>
      l.client_msg_id === cid ? { ...l, ...patch } : l,
    ),
  }));
}

export function removeLocal(sessionId: number, cid: string): void {
  localMessages.set((m) => ({
    ...m,
    [sessionId]: (m[sessionId] ?? []).filter((l) => l.client_msg_id !== cid),
  }));
}
