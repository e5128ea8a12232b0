import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BatchStatus } from '@parley/protocol';
import { buildApp } from '../src/app.js';
import { loadConfig, ConfigError } from '../src/config.js';
import { batchClientMsgId } from '../src/jobs/batch-sender.js';
import { sessionsRepository } from '../src/modules/sessions/sessions.repository.js';
import type { Db } from '../src/db/database.js';
import {
  createChat,
  createGroup,
  createSeat,
  nextPhone,
  type ChatFixture,
  type SeatFixture,
} from './fixtures.js';
import { createTestApp, createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';
import { uploaded } from './media-helpers.js';

const BATCH = '/v1/seat/chat/batch_message';
const STATUS = '/v1/seat/chat/batch_status';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

let batchCounter = 0;
const newBatchId = () => `test-batch-${process.pid}-${++batchCounter}`;

/** Polls batch_status until every chat has been tried (the sender works in the background). */
async function waitDone(app: TestApp, seat: SeatFixture, batchId: string): Promise<BatchStatus> {
  return vi.waitFor(
    async () => {
      const res = await app.call(STATUS, { batch_id: batchId }, seat.token);
      expect(res.code).toBe('000000');
      expect(res.data.done).toBe(true);
      return res.data;
    },
    { timeout: 15_000, interval: 20 },
  );
}

/** The outgoing messages of a chat, oldest first, as the chat record shows them. */
async function outgoing(app: TestApp, seat: SeatFixture, chat: ChatFixture) {
  const res = await app.call(
    '/v1/seat/chat/getChatRecord',
    { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone, page_size: 200 },
    seat.token,
  );
  expect(res.code).toBe('000000');
  return res.data.list.filter((m) => m.direction === 'out');
}

function batchRows(db: Db, seatId: number) {
  return db.selectFrom('batches').selectAll().where('seat_id', '=', seatId).execute();
}

async function chats(seat: SeatFixture, n: number, groupId?: number) {
  const list: ChatFixture[] = [];
  for (let i = 0; i < n; i++) list.push(await createChat(t.db, seat, { groupId }));
  return list;
}

describe('batch reply', () => {
  it('sends to chosen chats across groups and to every chat of a whole group, once each', async () => {
    const seat = await createSeat(t, 'batch-basic', 2);
    const vip = await createGroup(t, seat, 'VIP');
    const later = await createGroup(t, seat, 'Later');
    const [a1, a2] = await chats(seat, 2, vip);
    const [u1] = await chats(seat, 1);
    const inLater = await chats(seat, 3, later);
    // A chat of the seat's second account, in the whole group.
    inLater.push(await createChat(t.db, seat, { groupId: later, sendPhone: seat.phones[1] }));
    const batchId = newBatchId();

    const res = await t.call(
      BATCH,
      {
        batch_id: batchId,
        // inLater[0] is chosen and in the chosen group: it is targeted once.
        session_ids: [a1!.sessionId, u1!.sessionId, inLater[0]!.sessionId],
        group_ids: [later],
        content: 'Our shop opens at 9 tomorrow',
      },
      seat.token,
    );
    expect(res.code).toBe('000000');
    expect(res.data.batch_id).toBe(batchId);
    expect(res.data.total).toBe(6);
    expect(res.data.sent + res.data.failed).toBeLessThanOrEqual(6);
    // The chosen chats first, in the order given, then the group's.
    expect(res.data.results.map((r) => r.session_id)).toEqual([
      a1!.sessionId,
      u1!.sessionId,
      inLater[0]!.sessionId,
      ...inLater.slice(1).map((c) => c.sessionId),
    ]);

    const done = await waitDone(t, seat, batchId);
    expect(done).toMatchObject({ total: 6, sent: 6, failed: 0, done: true });
    for (const r of done.results) {
      expect(r).toMatchObject({ status: 'sent', code: '000000', msg_id: expect.any(Number) });
    }
    for (const chat of [a1!, u1!, ...inLater]) {
      const out = await outgoing(t, seat, chat);
      expect(out.map((m) => m.content)).toEqual(['Our shop opens at 9 tomorrow']);
      const result = done.results.find((r) => r.session_id === chat.sessionId)!;
      expect(result.receiver_phone).toBe(chat.receiverPhone);
      expect(out[0]!.msg_id).toBe(result.msg_id);
      expect(out[0]).toMatchObject({ type: 'text', status: 'sent', direction: 'out' });
    }
    // The chat outside the targets got nothing.
    expect(await outgoing(t, seat, a2!)).toEqual([]);
    // The user list shows the new last message.
    const list = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: later, user_time_type: 1 },
      seat.token,
    );
    expect(list.data.account_list.map((s) => s.last_message?.preview)).toEqual(
      inLater.map(() => 'Our shop opens at 9 tomorrow'),
    );
  });

  it('the same request twice (or at once) is one batch: one message per chat', async () => {
    const seat = await createSeat(t, 'batch-repeat');
    const targets = await chats(seat, 4);
    const body = {
      batch_id: newBatchId(),
      session_ids: targets.map((c) => c.sessionId),
      content: 'Sent once',
    };
    const [first, second] = await Promise.all([
      t.call(BATCH, body, seat.token),
      t.call(BATCH, body, seat.token),
    ]);
    expect(first.code).toBe('000000');
    expect(second.code).toBe('000000');
    const third = await t.call(BATCH, { ...body, session_ids: [...body.session_ids].reverse() });
    expect(third.code).toBe('400002'); // no token: nothing happens either
    const done = await waitDone(t, seat, body.batch_id);
    expect(done).toMatchObject({ total: 4, sent: 4, failed: 0 });

    // Repeated after it finished (targets in another order are the same request).
    const again = await t.call(
      BATCH,
      { ...body, session_ids: [...body.session_ids].reverse() },
      seat.token,
    );
    expect(again.code).toBe('000000');
    expect(again.data).toEqual(done);
    // The same batch_id with another payload is refused and changes nothing.
    const other = await t.call(BATCH, { ...body, content: 'Something else' }, seat.token);
    expect(other.code).toBe('500002');
    expect(other.status).toBe(200);
    expect(other.data).toEqual({ batch_id: body.batch_id });
    const moreTargets = await t.call(
      BATCH,
      { ...body, session_ids: body.session_ids.slice(1) },
      seat.token,
    );
    expect(moreTargets.code).toBe('500002');

    expect(await batchRows(t.db, seat.seatId)).toHaveLength(1);
    for (const chat of targets) {
      expect((await outgoing(t, seat, chat)).map((m) => m.content)).toEqual(['Sent once']);
    }
    expect((await t.call(STATUS, { batch_id: body.batch_id }, seat.token)).data).toEqual(done);
  });

  it('a blocked chat and a chat deleted meanwhile fail with their codes; the others are sent', async () => {
    const seat = await createSeat(t, 'batch-blocked');
    const [ok1, blocked, deleted, ok2] = await chats(seat, 4);
    const block = await t.call(
      '/v1/seat/chat/block',
      { session_id: blocked!.sessionId },
      seat.token,
    );
    expect(block.code).toBe('000000');
    const sender = t.app.parley.jobs.batchSender;
    await sender.stop(); // hold the batch until the chat is deleted
    try {
      const batchId = newBatchId();
      const res = await t.call(
        BATCH,
        {
          batch_id: batchId,
          session_ids: [ok1, blocked, deleted, ok2].map((c) => c!.sessionId),
          content: 'Hello all',
        },
        seat.token,
      );
      expect(res.code).toBe('000000');
      expect(res.data).toMatchObject({ total: 4, sent: 0, failed: 0, done: false });
      expect(res.data.results.every((r) => r.status === 'pending' && r.code === null)).toBe(true);
      const del = await t.call(
        '/v1/seat/chat/delSession',
        { session_id: deleted!.sessionId },
        seat.token,
      );
      expect(del.code).toBe('000000');
      sender.start();

      const done = await waitDone(t, seat, batchId);
      expect(done).toMatchObject({ total: 4, sent: 2, failed: 2 });
      const byId = new Map(done.results.map((r) => [r.session_id, r]));
      expect(byId.get(blocked!.sessionId)).toMatchObject({
        status: 'failed',
        code: '400003',
        msg_id: null,
      });
      expect(byId.get(deleted!.sessionId)).toMatchObject({
        status: 'failed',
        code: '400001',
        msg_id: null,
        receiver_phone: deleted!.receiverPhone,
      });
      for (const chat of [ok1!, ok2!]) {
        expect(byId.get(chat.sessionId)).toMatchObject({ status: 'sent', code: '000000' });
        expect((await outgoing(t, seat, chat)).map((m) => m.content)).toEqual(['Hello all']);
      }
      const blockedMessages = await t.db
        .selectFrom('messages')
        .select('id')
        .where('session_id', '=', blocked!.sessionId)
        .where('direction', '=', 'out')
        .execute();
      expect(blockedMessages).toEqual([]);
    } finally {
      sender.start();
    }
  });

  it('a message stored before a crash is not sent again when the item is retried', async () => {
    const seat = await createSeat(t, 'batch-crash');
    const targets = await chats(seat, 3);
    const sender = t.app.parley.jobs.batchSender;
    await sender.stop();
    try {
      const batchId = newBatchId();
      const res = await t.call(
        BATCH,
        { batch_id: batchId, session_ids: targets.map((c) => c.sessionId), content: 'Once only' },
        seat.token,
      );
      expect(res.code).toBe('000000');
      // Stage what a sender that died mid-item leaves: the first chat's message is stored with
      // the batch's client_msg_id, its item is still pending and its claim has expired.
      const batch = (await batchRows(t.db, seat.seatId))[0]!;
      const first = targets[0]!;
      const stored = await t.services.messages.send(seat.seatId, {
        send_phone: first.sendPhone,
        receiver_phone: first.receiverPhone,
        type: 'text',
        content: 'Once only',
        client_msg_id: batchClientMsgId(batch.id, first.sessionId),
      });
      await t.db
        .updateTable('batch_items')
        .set({ claim_until: Date.now() - 1, attempts: 1 })
        .where('batch_row_id', '=', batch.id)
        .where('session_id', '=', first.sessionId)
        .execute();
      sender.start();

      const done = await waitDone(t, seat, batchId);
      expect(done).toMatchObject({ total: 3, sent: 3, failed: 0 });
      expect(done.results[0]).toMatchObject({ session_id: first.sessionId, msg_id: stored.msg_id });
      for (const chat of targets) {
        expect((await outgoing(t, seat, chat)).map((m) => m.content)).toEqual(['Once only']);
      }
    } finally {
      sender.start();
    }
  });

  it("sends media (an upload, or a material's) to every chat; foreign or unfit media refused", async () => {
    const seat = await createSeat(t, 'batch-media');
    const other = await createSeat(t, 'batch-media-other');
    const targets = await chats(seat, 2);
    const photo = await uploaded(t, seat.token, 'image', 'photo.png');
    const voice = await uploaded(t, seat.token, 'audio', 'voice.ogg');
    const material = await t.call(
      '/v1/seat/chat/quickReplyDoType',
      {
        type: 'add',
        kind: 'audio',
        name: 'Voice hello',
        content: 'Hello',
        media_id: voice.media_id,
      },
      seat.token,
    );
    expect(material.code).toBe('000000');
    const foreign = await uploaded(t, other.token, 'image', 'photo.jpg');
    const ids = targets.map((c) => c.sessionId);

    for (const [body, code, msg] of [
      [{ type: 'image', media_id: foreign.media_id }, '400001', 'Data does not exist'],
      [{ type: 'image', media_id: 'no-such-media-0000000' }, '400001', 'Data does not exist'],
      [{ type: 'audio', media_id: photo.media_id }, '100001', 'Parameter error: media_id'],
    ] as const) {
      const res = await t.call(
        BATCH,
        { batch_id: newBatchId(), session_ids: ids, ...body },
        seat.token,
      );
      expect(res.code, JSON.stringify(body)).toBe(code);
      expect(res.msg).toBe(msg);
    }
    expect(await batchRows(t.db, seat.seatId)).toEqual([]);

    const image = newBatchId();
    const withCaption = await t.call(
      BATCH,
      {
        batch_id: image,
        session_ids: ids,
        type: 'image',
        media_id: photo.media_id,
        content: 'Our new menu',
      },
      seat.token,
    );
    expect(withCaption.code).toBe('000000');
    const audio = newBatchId();
    const fromMaterial = await t.call(
      BATCH,
      { batch_id: audio, session_ids: ids, type: 'audio', media_id: material.data.item!.media_id! },
      seat.token,
    );
    expect(fromMaterial.code).toBe('000000');
    expect(await waitDone(t, seat, image)).toMatchObject({ sent: 2, failed: 0 });
    expect(await waitDone(t, seat, audio)).toMatchObject({ sent: 2, failed: 0 });
    for (const chat of targets) {
      const out = await outgoing(t, seat, chat);
      expect(out.map((m) => [m.type, m.content, m.media?.media_id])).toEqual([
        ['image', 'Our new menu', photo.media_id],
        ['audio', '', voice.media_id],
      ]);
      expect(out[0]!.media).toMatchObject({ mime: 'image/png', url: expect.any(String) });
    }
  });

  it('keeps the configured pace: at most N messages per second by their timestamps', async () => {
    const paced = await createTestApp({ batchRatePerSecond: 5 });
    try {
      const seat = await createSeat(paced, 'batch-pace');
      const targets: ChatFixture[] = [];
      for (let i = 0; i < 11; i++) targets.push(await createChat(paced.db, seat));
      // Two batches of the same seat at once share the seat's pace.
      const ids = [newBatchId(), newBatchId()];
      const parts = [targets.slice(0, 6), targets.slice(6)];
      for (const [i, part] of parts.entries()) {
        const res = await paced.call(
          BATCH,
          { batch_id: ids[i]!, session_ids: part.map((c) => c.sessionId), content: 'Paced' },
          seat.token,
        );
        expect(res.code).toBe('000000');
      }
      for (const id of ids) expect((await waitDone(paced, seat, id)).sent).toBeGreaterThan(0);

      const times = (
        await paced.db
          .selectFrom('messages')
          .select('created_at')
          .where('seat_id', '=', seat.seatId)
          .where('direction', '=', 'out')
          .orderBy('created_at')
          .execute()
      ).map((m) => m.created_at);
      expect(times).toHaveLength(11);
      // 5 per second: consecutive messages are at least 200 ms apart, so any 1-second window
      // holds at most 5 of them.
      for (let i = 1; i < times.length; i++) {
        expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(200);
      }
      for (let i = 5; i < times.length; i++) {
        expect(times[i]! - times[i - 5]!).toBeGreaterThanOrEqual(1000);
      }
    } finally {
      await paced.close();
    }
  });

  it('validates: empty targets, empty text, media without media_id; nothing is stored', async () => {
    const seat = await createSeat(t, 'batch-validate');
    const [chat] = await chats(seat, 1);
    const emptyGroup = await createGroup(t, seat, 'Empty');
    const cases: [Record<string, unknown>, string][] = [
      [{ batch_id: newBatchId(), content: 'hi' }, 'session_ids'],
      [{ batch_id: newBatchId(), session_ids: [], group_ids: [], content: 'hi' }, 'session_ids'],
      [{ batch_id: newBatchId(), session_ids: [chat!.sessionId], content: '   ' }, 'content'],
      [{ batch_id: newBatchId(), session_ids: [chat!.sessionId] }, 'content'],
      [{ batch_id: newBatchId(), session_ids: [chat!.sessionId], type: 'image' }, 'media_id'],
      [{ batch_id: 'short', session_ids: [chat!.sessionId], content: 'hi' }, 'batch_id'],
      [{ batch_id: newBatchId(), session_ids: [0], content: 'hi' }, 'session_ids.0'],
      // A whole group without chats is an empty target too.
      [{ batch_id: newBatchId(), group_ids: [emptyGroup], content: 'hi' }, 'session_ids'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call(BATCH, body, seat.token);
      expect(res.code, JSON.stringify(body)).toBe('100001');
      expect(res.status).toBe(200);
      expect(res.msg).toBe(`Parameter error: ${field}`);
    }
    expect(await batchRows(t.db, seat.seatId)).toEqual([]);
    expect(await outgoing(t, seat, chat!)).toEqual([]);

    const unknown = await t.call(STATUS, { batch_id: newBatchId() }, seat.token);
    expect(unknown.code).toBe('400001');
    expect((await t.call(STATUS, { batch_id: 'x' }, seat.token)).code).toBe('100001');
  });

  it('refuses more chats than BATCH_TARGETS_MAX (500003), nothing stored', async () => {
    const seat = await createSeat(t, 'batch-limit');
    const big = await createGroup(t, seat, 'Big');
    const now = Date.now();
    const rows = Array.from({ length: 5001 }, () => ({
      seat_id: seat.seatId,
      send_phone: seat.phones[0]!,
      receiver_phone: nextPhone('+4478'),
      group_id: big,
      prev_group_id: null,
      is_top: 0,
      remark: '',
      un_read_count: 0,
      add_time: now,
      latest_time: now,
      last_direction: null,
      last_preview: null,
      last_type: null,
      customer_language: null,
      blocked: 0,
    }));
    await sessionsRepository.insertMany(t.db, rows);
    const res = await t.call(
      BATCH,
      { batch_id: newBatchId(), group_ids: [big], content: 'too many' },
      seat.token,
    );
    expect(res.code).toBe('500003');
    expect(res.data).toEqual({ max: 5000 });
    expect(await batchRows(t.db, seat.seatId)).toEqual([]);
  });

  it("isolation: another seat's chats, groups and batches are as absent as missing ones", async () => {
    const a = await createSeat(t, 'batch-iso-a');
    const b = await createSeat(t, 'batch-iso-b');
    const [aChat] = await chats(a, 1);
    const bGroup = await createGroup(t, b, 'B group');
    const [bChat] = await chats(b, 1, bGroup);

    for (const body of [
      { session_ids: [aChat!.sessionId, bChat!.sessionId] },
      { session_ids: [aChat!.sessionId], group_ids: [bGroup] },
      { group_ids: [b.groups.ungrouped] },
      { session_ids: [999_999] },
    ]) {
      const res = await t.call(
        BATCH,
        { batch_id: newBatchId(), content: 'nosy', ...body },
        a.token,
      );
      expect(res.code, JSON.stringify(body)).toBe('400001');
      expect(res.status).toBe(200);
    }
    expect(await batchRows(t.db, a.seatId)).toEqual([]);
    expect(await outgoing(t, b, bChat!)).toEqual([]);
    expect(await outgoing(t, a, aChat!)).toEqual([]);

    // B's batch: A cannot read it, and A's own batch may use the same batch_id.
    const shared = newBatchId();
    const bBatch = await t.call(
      BATCH,
      { batch_id: shared, session_ids: [bChat!.sessionId], content: 'B only' },
      b.token,
    );
    expect(bBatch.code).toBe('000000');
    expect((await t.call(STATUS, { batch_id: shared }, a.token)).code).toBe('400001');
    const aBatch = await t.call(
      BATCH,
      { batch_id: shared, session_ids: [aChat!.sessionId], content: 'A only' },
      a.token,
    );
    expect(aBatch.code).toBe('000000');
    expect(aBatch.data.results.map((r) => r.session_id)).toEqual([aChat!.sessionId]);
    await waitDone(t, a, shared);
    await waitDone(t, b, shared);
    expect((await outgoing(t, a, aChat!)).map((m) => m.content)).toEqual(['A only']);
    expect((await outgoing(t, b, bChat!)).map((m) => m.content)).toEqual(['B only']);

    expect((await t.call(STATUS, { batch_id: shared })).code).toBe('400002');
  });
});

describe('batch reply across instances and restarts', () => {
  it('two app instances on the same database send each chat exactly one message', async () => {
    const { config, cleanup } = await createTestDatabaseConfig({ batchRatePerSecond: 40 });
    const one = await buildApp(config);
    await one.ready();
    const two = await buildApp(config);
    await two.ready();
    try {
      const t1 = testAppOf(one, config);
      const seat = await createSeat(t1, 'batch-two');
      const group = await createGroup(t1, seat, 'All');
      const targets: ChatFixture[] = [];
      for (let i = 0; i < 30; i++) targets.push(await createChat(t1.db, seat, { groupId: group }));
      const batchId = newBatchId();
      const body = { batch_id: batchId, group_ids: [group], content: 'Exactly once' };
      // The same request reaches both instances (a client retry through a load balancer).
      const [r1, r2] = await Promise.all([
        t1.call(BATCH, body, seat.token),
        testAppOf(two, config).call(BATCH, body, seat.token),
      ]);
      expect([r1.code, r2.code]).toEqual(['000000', '000000']);
      two.parley.jobs.batchSender.wake();

      const done = await waitDone(t1, seat, batchId);
      expect(done).toMatchObject({ total: 30, sent: 30, failed: 0 });
      const rows = await t1.db
        .selectFrom('messages')
        .select(['session_id', 'client_msg_id'])
        .where('seat_id', '=', seat.seatId)
        .where('direction', '=', 'out')
        .execute();
      expect(rows).toHaveLength(30);
      expect(new Set(rows.map((r) => r.session_id))).toEqual(
        new Set(targets.map((c) => c.sessionId)),
      );
      // And no item was ever claimed twice (the client_msg_id is only the second safety net).
      const attempts = await t1.db.selectFrom('batch_items').select('attempts').execute();
      expect(attempts.map((a) => a.attempts)).toEqual(attempts.map(() => 1));
    } finally {
      await one.close();
      await two.close();
      await cleanup();
    }
  });

  it('a restart mid-batch finishes the pending chats without doubles', async () => {
    const { config, cleanup } = await createTestDatabaseConfig({ batchRatePerSecond: 10 });
    let first = await buildApp(config);
    await first.ready();
    let firstOpen = true;
    try {
      const t1 = testAppOf(first, config);
      const seat = await createSeat(t1, 'batch-restart');
      const targets: ChatFixture[] = [];
      for (let i = 0; i < 8; i++) targets.push(await createChat(t1.db, seat));
      const batchId = newBatchId();
      const res = await t1.call(
        BATCH,
        { batch_id: batchId, session_ids: targets.map((c) => c.sessionId), content: 'Resumed' },
        seat.token,
      );
      expect(res.code).toBe('000000');
      const before = await vi.waitFor(
        async () => {
          const s = (await t1.call(STATUS, { batch_id: batchId }, seat.token)).data;
          expect(s.sent).toBeGreaterThanOrEqual(2);
          return s;
        },
        { timeout: 10_000, interval: 10 },
      );
      await first.close();
      firstOpen = false;
      const closedAt = Date.now();
      expect(before.done).toBe(false);

      first = await buildApp(config);
      await first.ready();
      firstOpen = true;
      const t2 = testAppOf(first, config);
      // The seat's token outlives the restart (it is stored in the database).
      const done = await waitDone(t2, seat, batchId);
      expect(done).toMatchObject({ total: 8, sent: 8, failed: 0 });
      const rows = await t2.db
        .selectFrom('messages')
        .select(['session_id', 'created_at'])
        .where('seat_id', '=', seat.seatId)
        .where('direction', '=', 'out')
        .execute();
      expect(rows).toHaveLength(8);
      expect(new Set(rows.map((r) => r.session_id)).size).toBe(8);
      // Some of them were sent by the new instance, after the first one closed.
      expect(rows.filter((r) => r.created_at >= closedAt).length).toBeGreaterThan(0);
    } finally {
      if (firstOpen) await first.close();
      await cleanup();
    }
  });
});

describe('config', () => {
  it('PARLEY_BATCH_RATE_PER_SECOND: default 5, fractions allowed, bad values refused', () => {
    expect(loadConfig({}).batchRatePerSecond).toBe(5);
    expect(loadConfig({ PARLEY_BATCH_RATE_PER_SECOND: '0.5' }).batchRatePerSecond).toBe(0.5);
    for (const bad of ['0', 'fast', '-1', '5000']) {
      expect(() => loadConfig({ PARLEY_BATCH_RATE_PER_SECOND: bad })).toThrow(ConfigError);
    }
  });
});
