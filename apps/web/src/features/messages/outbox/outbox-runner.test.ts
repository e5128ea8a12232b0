import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '@parley/protocol';
import {
  chatMessage,
  chatPage,
  localMessage,
  memoryStore,
  recordData,
} from '../../../test/builders';
import { writeItem } from '../../../lib/storage';
import { chatKey, type ChatData } from '../api/message-cache';
import { addLocal, allLocals, localMessages, type LocalMessage } from '../local-messages.store';
import { initialLocalStatus, outboxRunner } from './outbox-runner';
import { outboxKey } from './outbox-keys';

/**
 * The outbox runner against the browser's boundary: `fetch` answers as the server would (an
 * envelope per request, or a network failure), `localStorage` is a Map, and the timers are
 * fake so back-off can be stepped through.
 */
interface Sent {
  client_msg_id: string;
  session_id: number;
  answer: (reply: Reply) => void;
}
type Reply = { ok: true } | { code: string } | 'network';

let sent: Sent[];
let nextMsgId: number;
let qc: QueryClient;

function server() {
  vi.stubGlobal('fetch', (path: string, init: RequestInit) => {
    expect(path).toBe('/v1/seat/chat/message');
    const body = JSON.parse(String(init.body)) as { client_msg_id: string; content: string };
    const local = allLocals().find((l) => l.client_msg_id === body.client_msg_id)!;
    return new Promise<Response>((resolve, reject) => {
      sent.push({
        client_msg_id: body.client_msg_id,
        session_id: local.session_id,
        answer: (reply) => {
          if (reply === 'network') return reject(new TypeError('Failed to fetch'));
          const saved: ChatMessage = chatMessage(nextMsgId++, {
            session_id: local.session_id,
            client_msg_id: body.client_msg_id,
            content: body.content,
          });
          const envelope =
            'ok' in reply
              ? { code: '000000', msg: 'success', data: saved }
              : { code: reply.code, msg: 'refused', data: null };
          resolve(new Response(JSON.stringify(envelope)));
        },
      });
    });
  });
}

/** Lets the promise chains of answered requests run (fetch, settle, the runner's next kick). */
const settle = () => vi.advanceTimersByTimeAsync(0);

const idsIn = (sessionId: number) =>
  qc
    .getQueryData<ChatData>(chatKey(sessionId))!
    .pages.flatMap((p) => p.list.map((m) => m.client_msg_id));

const locals = (): Pick<LocalMessage, 'client_msg_id' | 'status'>[] =>
  allLocals().map(({ client_msg_id, status }) => ({ client_msg_id, status }));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  vi.stubGlobal('localStorage', memoryStore());
  writeItem('userInfo', { token: 'token-1' } as never);
  localMessages.set({});
  sent = [];
  nextMsgId = 100;
  qc = new QueryClient();
  for (const id of [1, 2]) qc.setQueryData<ChatData>(chatKey(id), recordData(chatPage([])));
  server();
});

afterEach(async () => {
  // Requests left unanswered end (a settled promise ignores a second answer) before the next test.
  for (const s of sent) s.answer('network');
  await settle();
  outboxRunner.stop();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('outbox runner', () => {
  it("sends each chat's messages in order, one request per chat at a time, into the record", async () => {
    const a1 = localMessage(1);
    const a2 = localMessage(1);
    const b1 = localMessage(2);
    addLocal(a1, a2, b1);
    outboxRunner.start(7, qc);
    // One request per chat: a2 waits for a1.
    expect(sent.map((s) => s.client_msg_id)).toEqual([a1.client_msg_id, b1.client_msg_id]);

    sent[0]!.answer({ ok: true });
    await settle();
    expect(sent.map((s) => s.client_msg_id)).toEqual([
      a1.client_msg_id,
      b1.client_msg_id,
      a2.client_msg_id,
    ]);
    sent[1]!.answer({ ok: true });
    sent[2]!.answer({ ok: true });
    await settle();

    expect(allLocals()).toEqual([]);
    expect(idsIn(1)).toEqual([a1.client_msg_id, a2.client_msg_id]);
    expect(idsIn(2)).toEqual([b1.client_msg_id]);
    expect(localStorage.getItem(outboxKey(7))).toBeNull();
  });

  it('a network failure: the messages wait and go again with the same client id, once', async () => {
    const a1 = localMessage(1);
    const a2 = localMessage(1);
    addLocal(a1, a2);
    outboxRunner.start(7, qc);
    sent[0]!.answer('network');
    await settle();
    expect(locals().map((l) => l.status)).toEqual(['waiting', 'waiting']);
    expect(initialLocalStatus()).toBe('waiting');
    expect(sent).toHaveLength(1);

    // The first retry comes after at most a second (back-off), not before 0.8 s.
    await vi.advanceTimersByTimeAsync(790);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(220);
    expect(sent.map((s) => s.client_msg_id)).toEqual([a1.client_msg_id, a1.client_msg_id]);
    sent[1]!.answer({ ok: true });
    await settle();
    sent[2]!.answer({ ok: true });
    await settle();

    expect(initialLocalStatus()).toBe('pending');
    expect(allLocals()).toEqual([]);
    expect(idsIn(1)).toEqual([a1.client_msg_id, a2.client_msg_id]);
  });

  it('a message the server refuses is failed with its code; the next in its chat still goes', async () => {
    const a1 = localMessage(1);
    const a2 = localMessage(1);
    addLocal(a1, a2);
    outboxRunner.start(7, qc);
    sent[0]!.answer({ code: '100001' });
    await settle();
    expect(sent.map((s) => s.client_msg_id)).toEqual([a1.client_msg_id, a2.client_msg_id]);
    sent[1]!.answer({ ok: true });
    await settle();

    expect(allLocals()).toMatchObject([
      { client_msg_id: a1.client_msg_id, status: 'failed', error: { code: '100001' } },
    ]);
    expect(idsIn(1)).toEqual([a2.client_msg_id]);
  });

  it('an expired login holds every message until the next login, whatever wakes it', async () => {
    const a1 = localMessage(1);
    addLocal(a1, localMessage(2));
    outboxRunner.start(7, qc);
    sent[0]!.answer({ code: '400002' });
    await settle();
    sent[1]!.answer({ ok: true });
    await settle();
    expect(locals()).toEqual([{ client_msg_id: a1.client_msg_id, status: 'waiting' }]);

    window.dispatchEvent(new Event('online'));
    outboxRunner.wake();
    addLocal(localMessage(2));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(2);

    // A new login starts the runner again: what waited goes.
    outboxRunner.stop();
    outboxRunner.start(7, qc);
    expect(
      sent
        .slice(2)
        .map((s) => s.session_id)
        .sort(),
    ).toEqual([1, 2]);
  });

  it("unsent messages outlive a reload, for their own seat's console only", async () => {
    const a1 = localMessage(1, { content: 'kept across the reload' });
    addLocal(a1);
    outboxRunner.start(7, qc);
    sent[0]!.answer('network');
    await settle();
    outboxRunner.stop();

    // A reload: the page's memory is gone, localStorage is not.
    localMessages.set({});
    outboxRunner.start(8, qc);
    expect(sent).toHaveLength(1);
    expect(allLocals()).toEqual([]);
    outboxRunner.stop();

    // Back in the outbox, to be tried at once (this page has not seen the server fail yet).
    outboxRunner.start(7, qc);
    expect(locals()).toEqual([{ client_msg_id: a1.client_msg_id, status: 'pending' }]);
    expect(sent.map((s) => s.client_msg_id)).toEqual([a1.client_msg_id, a1.client_msg_id]);
    sent[1]!.answer({ ok: true });
    await settle();
    expect(allLocals()).toEqual([]);
    expect(idsIn(1)).toEqual([a1.client_msg_id]);
  });
});
