import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, createSeat } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { resumeLoad } from './resume-load.js';
import { PushClient } from './ws-client.js';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

describe('resume (issue 32)', () => {
  it('consoles that resume again and again while others write miss nothing, and get each event once, in order', async () => {
    const seat = await createSeat(t, 'resume-exact');
    const chats = await Promise.all([0, 1, 2, 3, 4].map(() => createChat(t.db, seat)));
    const result = await resumeLoad({
      bases: [base],
      token: seat.token,
      senders: 5,
      consoles: 10,
      minResumes: 100,
      minMs: 3_000,
      maxMs: 45_000,
      async send(s, n) {
        const chat = chats[s]!;
        const answer = await t.call(
          '/v1/seat/chat/message',
          {
            send_phone: chat.sendPhone,
            receiver_phone: chat.receiverPhone,
            type: 'text',
            content: `sender ${s} #${n}`,
            client_msg_id: `resume-${s}-${n}`,
          },
          seat.token,
        );
        if (answer.code !== '000000') throw new Error(answer.raw);
      },
    });
    console.log(`resume load (${process.env.PARLEY_TEST_DB}): ${JSON.stringify(result)}`);
    expect(result.resumes).toBeGreaterThanOrEqual(100);
    expect(result.events).toBeGreaterThan(100);
    expect(result).toMatchObject({ missed: 0, doubled: 0, outOfOrder: 0, resets: 0 });
  }, 120_000);

  it('a socket still behind when its next events are pruned is told reset, then gets what follows', async () => {
    const seat = await createSeat(t, 'resume-pruned');
    const chat = await createChat(t.db, seat);
    const client = await PushClient.open(base, { token: seat.token, last_event_id: 0 });
    try {
      await client.waitFor('ready');
      const send = (content: string) =>
        t.call(
          '/v1/seat/chat/message',
          {
            send_phone: chat.sendPhone,
            receiver_phone: chat.receiverPhone,
            type: 'text',
            content,
            client_msg_id: `resume-pruned-${content}`,
          },
          seat.token,
        );
      await send('a');
      await send('b');
      await client.waitForEvent('message.created', (d) => d.message.content === 'b');
      const ids = client.events().map((e) => e.id);
      // As a socket whose sending lagged far behind (a day, by hand): it was sent the first only.
      // Set once no read of the log is in flight and its events are pruned: a drain (a poll's)
      // that read between the two found event 2 still there and sent it again (CI, once).
      const hub = t.app.parley.realtime.hub;
      await hub.settle();
      await t.app.parley.jobs.eventsPruner.prune(Date.now() + 48 * 3600_000);
      const conn = hub.connections().find((c) => c.seatId === seat.seatId)!;
      conn.lastSent = ids[0]!;
      await send('c');
      const reset = await client.waitFor('reset');
      expect(reset).toMatchObject({ last_event_id: ids.at(-1)! });
      const c = await client.waitForEvent('message.created', (d) => d.message.content === 'c');
      expect(c.id).toBe(ids.at(-1)! + 1);
      // Nothing skipped silently: the reset came before the events that follow the gap.
      const after = client.frames.slice(client.frames.indexOf(reset));
      expect(
        after.filter((f) => f.kind === 'event').map((f) => f.kind === 'event' && f.id)[0],
      ).toBe(ids.at(-1)! + 1);
    } finally {
      client.close();
    }
  });
});
