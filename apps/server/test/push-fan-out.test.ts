import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { hashToken } from '../src/modules/auth/auth.service.js';
import type { PushSocket } from '../src/realtime/hub.js';
import { createSeat, nextPhone } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { platformPost } from './platform-helpers.js';

// What a seat's consoles cost per event (realtime/hub.ts): its frame is serialised once for
// all of them, and the frames of one commit leave each socket in one write. Observed at the
// socket's interface (what `ws` is handed): a socket standing in for a `ws` WebSocket, with
// the TCP stream ws keeps under it, whose writes it counts.

class CountingSocket implements PushSocket {
  readyState = 1;
  readonly frames: (string | Buffer)[] = [];
  /** Writes that reached the stream: a corked stream passes its frames on in one. */
  writes = 0;
  private corked = 0;
  private held = 0;
  readonly _socket = {
    cork: () => {
      this.corked += 1;
    },
    uncork: () => {
      this.corked -= 1;
      if (this.corked === 0 && this.held > 0) {
        this.writes += 1;
        this.held = 0;
      }
    },
  };

  send(data: string | Buffer): void {
    this.frames.push(data);
    if (this.corked > 0) this.held += 1;
    else this.writes += 1;
  }
  ping(): void {}
  close(): void {
    this.readyState = 3;
  }
  terminate(): void {
    this.readyState = 3;
  }
}

let t: TestApp;

beforeAll(async () => {
  // No heartbeat within the test: its pings would be writes of their own.
  t = await createTestApp({
    realtime: { redisUrl: null, retentionHours: 24, heartbeatMs: 600_000, pollMs: 100 },
  });
});
afterAll(async () => t?.close());

describe('fan-out to a seat’s consoles', () => {
  it('serialises each event once for every socket, and sends a commit’s frames in one write each', async () => {
    const seat = await createSeat(t, 'fan-once');
    const hub = t.app.parley.realtime.hub;
    const sockets = [new CountingSocket(), new CountingSocket(), new CountingSocket()];
    for (const socket of sockets) {
      await hub.join({ socket, seatId: seat.seatId, tokenHash: hashToken(seat.token) }, 0, 60_000);
    }
    // Past the `ready` frame each was sent on joining.
    const start = sockets.map((s) => ({ frames: s.frames.length, writes: s.writes }));
    const answer = await platformPost(
      t,
      PLATFORM_PATHS.message,
      JSON.stringify({
        id: `fan-${process.pid}`,
        account: seat.phones[0],
        customer: nextPhone('+4474'),
        type: 'text',
        content: 'hello all',
      }),
    );
    expect(answer.code).toBe('000000');
    await hub.settle();
    // A new customer's message: the chat, the message, the seat's group list.
    const frames = sockets.map((s, i) => s.frames.slice(start[i]!.frames));
    const types = frames[0]!.map((f) => (JSON.parse(String(f)) as { type: string }).type);
    expect(types).toEqual(['session.created', 'message.created', 'groups.changed']);
    for (const [i, f] of frames[0]!.entries()) {
      expect(Buffer.isBuffer(f)).toBe(true);
      // The very same bytes went to every socket.
      expect(frames[1]![i]).toBe(f);
      expect(frames[2]![i]).toBe(f);
    }
    expect(JSON.parse(String(frames[0]![1]))).toMatchObject({
      kind: 'event',
      type: 'message.created',
      data: { message: { content: 'hello all', direction: 'in' } },
    });
    expect(sockets.map((s, i) => s.writes - start[i]!.writes)).toEqual([1, 1, 1]);
  });
});
