import { describe, expect, it, vi } from 'vitest';
import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '@parley/protocol';
import { chatMessage as msg, chatPage, recordData, windowData } from '../../../test/builders';
import {
  chatKey,
  chatWindowKey,
  patchMessage,
  removeMessage,
  retractMessage,
  upsertMessage,
  type ChatData,
  type ChatPage,
  type ChatWindowData,
} from './message-cache';

/** A chat held twice: its live record and a window opened at message 2 (a search hit). */
function chatOpenTwice() {
  const qc = new QueryClient();
  qc.setQueryData<ChatData>(chatKey(1), recordData(chatPage([msg(3), msg(4)]), chatPage([msg(2)])));
  qc.setQueryData<ChatWindowData>(chatWindowKey(1, 2), windowData(2, chatPage([msg(1), msg(2)])));
  const ids = () => ({
    record: qc.getQueryData<ChatData>(chatKey(1))!.pages.map((p) => p.list.map((m) => m.msg_id)),
    window: qc
      .getQueryData<ChatWindowData>(chatWindowKey(1, 2))!
      .pages.map((p) => p.list.map((m) => m.msg_id)),
  });
  return { qc, ids };
}

describe('message cache: one edit reaches every view of the chat', () => {
  it('a message removed leaves the record and the window at a search hit', () => {
    const { qc, ids } = chatOpenTwice();
    removeMessage(qc, 1, 2);
    expect(ids()).toEqual({ record: [[3, 4], []], window: [[1]] });
  });

  it('a message retracted for all stays in place, deleted and emptied, in both', () => {
    const { qc } = chatOpenTwice();
    retractMessage(qc, 1, 2);
    const inWindow = qc.getQueryData<ChatWindowData>(chatWindowKey(1, 2))!.pages[0]!.list[1]!;
    const inRecord = qc.getQueryData<ChatData>(chatKey(1))!.pages[1]!.list[0]!;
    for (const m of [inWindow, inRecord]) {
      expect(m).toMatchObject({ msg_id: 2, deleted: true, content: '', media: null });
    }
  });

  it('a status change is patched in both; another chat is untouched', () => {
    const { qc } = chatOpenTwice();
    qc.setQueryData<ChatData>(chatKey(9), recordData(chatPage([msg(2, { session_id: 9 })])));
    patchMessage(qc, 1, 2, { status: 'read' });
    expect(qc.getQueryData<ChatWindowData>(chatWindowKey(1, 2))!.pages[0]!.list[1]!.status).toBe(
      'read',
    );
    expect(qc.getQueryData<ChatData>(chatKey(1))!.pages[1]!.list[0]!.status).toBe('read');
    expect(qc.getQueryData<ChatData>(chatKey(9))!.pages[0]!.list[0]!.status).toBe('sent');
  });

  it('a new message goes to the newest page and to a window that reaches the newest, once', () => {
    const { qc, ids } = chatOpenTwice();
    upsertMessage(qc, msg(5));
    upsertMessage(qc, msg(5));
    expect(ids()).toEqual({ record: [[3, 4, 5], [2]], window: [[1, 2, 5]] });
  });

  it('a window older than the newest does not get it (the gap is not guessed)', () => {
    const { qc, ids } = chatOpenTwice();
    qc.setQueryData<ChatWindowData>(
      chatWindowKey(1, 2),
      windowData(2, chatPage([msg(1), msg(2)], { has_newer: true })),
    );
    upsertMessage(qc, msg(5));
    expect(ids().window).toEqual([[1, 2]]);
  });
});

/**
 * A chat on screen whose fetches answer with what the server held when they were made, each
 * answer held back until `answer()`: an event can be applied between a fetch and its answer.
 */
function chatOnScreen(server: ChatMessage[], held?: ChatData) {
  const qc = new QueryClient();
  if (held) qc.setQueryData<ChatData>(chatKey(1), held);
  const waiting: (() => void)[] = [];
  const observer = new InfiniteQueryObserver(qc, {
    queryKey: chatKey(1),
    queryFn: () => {
      const page = chatPage(server.map((m) => ({ ...m })));
      return new Promise<ChatPage>((resolve) => waiting.push(() => resolve(page)));
    },
    initialPageParam: null as number | null,
    getNextPageParam: () => undefined,
  });
  const stop = observer.subscribe(() => undefined);
  const answer = () => waiting.splice(0).forEach((resolve) => resolve());
  const shown = () => qc.getQueryData<ChatData>(chatKey(1))?.pages[0]?.list ?? [];
  return { qc, answer, shown, stop };
}

describe('message cache: an event applied while the chat is being fetched', () => {
  it('a status is not undone by the answer of a fetch made before it', async () => {
    const server = [msg(2, { status: 'sent' })];
    const { qc, answer, shown, stop } = chatOnScreen(server, recordData(chatPage([msg(2)])));
    // The fetch on screen read "sent"; then the customer read the message, and it was pushed.
    server[0] = { ...server[0]!, status: 'read' };
    patchMessage(qc, 1, 2, { status: 'read' });
    await vi.waitFor(() => {
      answer();
      expect(shown().map((m) => m.status)).toEqual(['read']);
    });
    // Every fetch has landed: it stays read.
    answer();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(shown().map((m) => m.status)).toEqual(['read']);
    stop();
  });

  it('a new message pushed during the chat’s first fetch is shown once that fetch lands', async () => {
    const server = [msg(1)];
    const { qc, answer, shown, stop } = chatOnScreen(server);
    server.push(msg(2));
    upsertMessage(qc, msg(2));
    await vi.waitFor(() => {
      answer();
      expect(shown().map((m) => m.msg_id)).toEqual([1, 2]);
    });
    stop();
  });
});
