import type { ChatMessage, MessageQuote } from '@parley/protocol';
import { createStore, useStore } from '../lib/create-store';
import { onLogout } from '../lib/login-session';

/**
 * The message each chat's composer is replying to (the message menu's "Reply" sets it; the
 * composer shows it above the text and hands it to the next send, or drops it on ×). Kept per
 * chat in memory: switching chats keeps each chat's draft quote.
 */
const targets = createStore<Record<number, MessageQuote>>({});
onLogout(() => targets.set({}));

/** The quote a reply to `m` shows: a text's words on one line, a file's name, a caption. */
export function quoteOf(
  m: Pick<ChatMessage, 'msg_id' | 'direction' | 'type' | 'content' | 'media'>,
) {
  const words = m.type === 'file' && m.media ? m.media.file_name : m.content;
  return {
    msg_id: m.msg_id,
    direction: m.direction,
    type: m.type,
    preview: words.replace(/\s+/g, ' ').trim().slice(0, 100),
    deleted: false,
  } satisfies MessageQuote;
}

export function setReplyTarget(sessionId: number, quote: MessageQuote): void {
  targets.set((t) => ({ ...t, [sessionId]: quote }));
}

export function clearReplyTarget(sessionId: number): void {
  targets.set((t) => {
    if (!(sessionId in t)) return t;
    const next = { ...t };
    delete next[sessionId];
    return next;
  });
}

/** The chat's quote, cleared: what the send takes. */
export function takeReplyTarget(sessionId: number): MessageQuote | null {
  const quote = targets.get()[sessionId] ?? null;
  clearReplyTarget(sessionId);
  return quote;
}

export function useReplyTarget(sessionId: number): MessageQuote | null {
  return useStore(targets, (t) => t[sessionId] ?? null);
}
