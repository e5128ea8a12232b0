import type { ChatMessage, MediaKind } from '@parley/protocol';
import { createStore, useStore } from '../../lib/create-store';
import { onLogout } from '../../lib/login-session';

/**
 * Where a local insert stands: `pending` while it is being sent, `waiting` while the server
 * cannot be reached (it is sent by itself when it can), `failed` when the server refused it
 * (the operator may retry or discard it).
 */
export type LocalStatus = 'pending' | 'waiting' | 'failed';

/** A media file still on its way up (memory only: a Blob cannot be stored). */
export interface LocalUpload {
  file: Blob;
  kind: MediaKind;
  fileName: string;
  durationMs?: number;
  /** 0..1 of the bytes sent. */
  progress: number;
  state: 'uploading' | 'failed';
  /** An object URL to preview an image or play a voice note before it is uploaded. */
  previewUrl?: string;
}

/** A message inserted locally before the server has it (the spec's isLocalInsert). */
export interface LocalMessage extends Omit<ChatMessage, 'status' | 'client_msg_id'> {
  isLocalInsert: true;
  client_msg_id: string;
  status: LocalStatus;
  /** Needed to resend with the same client_msg_id. */
  send_phone: string;
  receiver_phone: string;
  /** Why the server refused it: its code and message (translated when shown). */
  error?: { code: string; msg: string } | null;
  /** Set while the media of an image/audio/video/file message is not uploaded yet. */
  upload?: LocalUpload | null;
  /** Sent anyway after another team member's reply a moment before (409005 asked first). */
  confirmed?: boolean;
}

type LocalMap = Record<number, LocalMessage[]>;

export const localMessages = createStore<LocalMap>({});
onLogout(() => localMessages.set({}));

const EMPTY: LocalMessage[] = [];

export function useLocalMessages(sessionId: number): LocalMessage[] {
  return useStore(localMessages, (m) => m[sessionId] ?? EMPTY);
}

/** Every local insert of every chat, each chat's in the order they were written. */
export function allLocals(map: LocalMap = localMessages.get()): LocalMessage[] {
  return Object.values(map).flat();
}

export function findLocal(sessionId: number, cid: string): LocalMessage | undefined {
  return localMessages.get()[sessionId]?.find((l) => l.client_msg_id === cid);
}

/** Adds local inserts (those already held, by client_msg_id, are left as they are). */
export function addLocal(...msgs: LocalMessage[]): void {
  localMessages.set((m) => {
    const next = { ...m };
    for (const msg of msgs) {
      const list = next[msg.session_id] ?? [];
      if (list.some((l) => l.client_msg_id === msg.client_msg_id)) continue;
      next[msg.session_id] = [...list, msg];
    }
    return next;
  });
}

export function updateLocal(sessionId: number, cid: string, patch: Partial<LocalMessage>): void {
  localMessages.set((m) => {
    const list = m[sessionId];
    if (!list?.some((l) => l.client_msg_id === cid)) return m;
    return {
      ...m,
      [sessionId]: list.map((l) => (l.client_msg_id === cid ? { ...l, ...patch } : l)),
    };
  });
}

export function removeLocal(sessionId: number, cid: string): void {
  localMessages.set((m) => {
    const list = m[sessionId];
    if (!list?.some((l) => l.client_msg_id === cid)) return m;
    const rest = list.filter((l) => l.client_msg_id !== cid);
    const next = { ...m };
    if (rest.length > 0) next[sessionId] = rest;
    else delete next[sessionId];
    return next;
  });
}
