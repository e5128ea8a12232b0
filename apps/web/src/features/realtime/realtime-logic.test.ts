import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@parley/protocol';
import { dropMessage, editMessages, replaceMessage } from '../messages/api/message-cache';
import { titleWithCount } from './attention';
import { backoffMs, reconnectDelayMs, realtimeUrl } from './push-connection';
import { chatMessage } from '../../test/builders';

const msg = (msg_id: number, patch: Partial<ChatMessage> = {}) =>
  chatMessage(msg_id, { content: `m${msg_id}`, ...patch });

describe('reconnect back-off', () => {
  it('doubles from 0.5 s up to 30 s, jittered within the upper half', () => {
    expect(backoffMs(0, () => 0)).toBe(250);
    expect(backoffMs(0, () => 1)).toBe(500);
    expect(backoffMs(3, () => 1)).toBe(4000);
    expect(backoffMs(20, () => 1)).toBe(30_000);
    expect(backoffMs(20, () => 0)).toBe(15_000);
  });

  it('reconnects at once when the server closed the socket for a restart', () => {
    // Even after many failed attempts: a draining instance is not a failing network.
    expect(reconnectDelayMs(1012, 20, () => 1)).toBe(200);
    expect(reconnectDelayMs(1012, 0, () => 0)).toBe(0);
    // Any other close (a drop, 1001, a lost network) still backs off.
    expect(reconnectDelayMs(1006, 3, () => 1)).toBe(4000);
    expect(reconnectDelayMs(null, 0, () => 0)).toBe(250);
  });

  it('uses wss on https', () => {
    expect(realtimeUrl({ protocol: 'https:', host: 'x.example' })).toBe(
      'wss://x.example/v1/seat/realtime',
    );
    expect(realtimeUrl({ protocol: 'http:', host: 'localhost:8080' })).toBe(
      'ws://localhost:8080/v1/seat/realtime',
    );
  });
});

describe('events into the chat cache', () => {
  const data = { pages: [{ list: [msg(3), msg(4)] }, { list: [msg(1), msg(2)] }] };

  it('replaces a message where it is, leaving other pages as they were', () => {
    const next = editMessages(data, (l) => replaceMessage(l, 2, { status: 'read' }))!;
    expect(next.pages[1]!.list[1]!.status).toBe('read');
    expect(next.pages[0]).toBe(data.pages[0]);
  });

  it('drops a message hidden for this seat; an unknown id changes nothing', () => {
    const next = editMessages(data, (l) => dropMessage(l, 3))!;
    expect(next.pages[0]!.list.map((m) => m.msg_id)).toEqual([4]);
    expect(editMessages(data, (l) => dropMessage(l, 9))).toBe(data);
  });
});

describe('page title', () => {
  it('carries the count of unseen customer messages, and loses it at zero', () => {
    expect(titleWithCount('Chat · Parley', 3)).toBe('(3) Chat · Parley');
    expect(titleWithCount('(3) Chat · Parley', 4)).toBe('(4) Chat · Parley');
    expect(titleWithCount('(4) Chat · Parley', 0)).toBe('Chat · Parley');
  });
});
