import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { createTestApp, type TestApp } from './helper.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { corpus, uploaded } from './media-helpers.js';
import { platformChat, platformPost, SECRET } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';
import { OutboxWorker } from '../src/jobs/outbox-worker.js';

let t: TestApp;
let seat: SeatFixture;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** What the receiver answers, by the message's content. */
const answers = new Map<string, number[]>();

beforeAll(async () => {
  receiver = await startReceiver(SECRET, (_n, body) => {
    const content = body.kind === 'message' ? body.content : `delete:${body.msg_id}`;
    const queue = answers.get(content);
    return queue?.length ? queue.shift()! : 200;
  });
  t = await createTestApp({
    platform: {
      secret: SECRET,
      url: receiver.url,
      timeoutMs: 5_000,
      maxAttempts: 4,
      retryBaseMs: 10,
      leaseMs: 5_000,
    },
  });
  seat = await createSeat(t, 'outbox-owner');
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

let n = 0;
async function send(customer: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await t.call(
    '/v1/seat/chat/message',
    {
      send_phone: seat.phones[0]!,
      receiver_phone: customer,
      type: 'text',
      content,
      client_msg_id: `c-${++n}-${content.replace(/\W/g, '_')}`,
      ...extra,
    },
    seat.token,
  );
  expect(res.code, res.raw).toBe('000000');
  return res.data;
}

const statusOf = async (customer: string, msgId: number) => {
  const rec = await t.call(
    '/v1/seat/chat/getChatRecord',
    { send_phone: seat.phones[0]!, receiver_phone: customer },
    seat.token,
  );
  return rec.data.list.find((m) => m.msg_id === msgId)!.status;
};

const outboxOf = (msgId: number) =>
  t.db.selectFrom('outbox').selectAll().where('msg_id', '=', msgId).execute();

const until = <T>(fn: () => Promise<T>) => vi.waitFor(fn, { timeout: 15_000, interval: 20 });

describe('outbox delivery to the platform', () => {
  it('a text reaches the platform signed, with its id as idempotency key', async () => {
    const customer = await platformChat(t, seat.phones[0]!);
    const msg = await send(customer, 'first words');
    await until(async () =>
      expect(receiver.delivered.has(`parley-${msg.msg_id}-message`)).toBe(true),
    );
    const got = receiver.raw.find((r) => r.key === `parley-${msg.msg_id}-message`)!;
    expect(got.signature).toBe('ok');
    expect(got.body).toMatchObject({
      kind: 'message',
      msg_id: msg.msg_id,
      account: seat.phones[0],
      customer,
      type: 'text',
      content: 'first words',
      media: null,
    });
    await until(async () => expect((await outboxOf(msg.msg_id))[0]!.status).toBe('done'));
    const row = await t.db
      .selectFrom('messages')
      .select(['external_id', 'status'])
      .where('id', '=', msg.msg_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ external_id: `ext-parley-${msg.msg_id}-message`, status: 'sent' });
    // The platform's receipts then move it on.
    await platformPost(
      t,
      PLATFORM_PATHS.receipt,
      JSON.stringify({ account: seat.phones[0], msg_id: msg.msg_id, status: 'delivered' }),
    );
    expect(await statusOf(customer, msg.msg_id)).toBe('delivered');
  });

  it('the outbox row is written with the message, even while no worker runs', async () => {
    await t.app.parley.jobs.outboxWorker.stop();
    try {
      const customer = await platformChat(t, seat.phones[0]!);
      const msg = await send(customer, 'queued while stopped');
      expect(await outboxOf(msg.msg_id)).toMatchObject([
        { kind: 'message', status: 'pending', attempts: 0 },
      ]);
      expect(receiver.raw.some((r) => r.body.msg_id === msg.msg_id)).toBe(false);
    } finally {
      t.app.parley.jobs.outboxWorker.start();
    }
  });

  it('retryable failures are retried with back-off until delivered', async () => {
    const customer = await platformChat(t, seat.phones[0]!);
    answers.set('flaky', [500, 503, 429]);
    const msg = await send(customer, 'flaky');
    await until(async () => expect((await outboxOf(msg.msg_id))[0]!.status).toBe('done'));
    const tries = receiver.raw.filter((r) => r.body.msg_id === msg.msg_id);
    expect(tries.map((r) => r.answered)).toEqual([500, 503, 429, 200]);
    expect(new Set(tries.map((r) => r.key)).size).toBe(1);
    expect(await statusOf(customer, msg.msg_id)).toBe('sent');
  });

  it('a refusal (4xx) fails at once; endless 5xx fail after the last attempt', async () => {
    const customer = await platformChat(t, seat.phones[0]!);
    answers.set('refused', [400]);
    answers.set('down', [500, 500, 500, 500, 500]);
    const refused = await send(customer, 'refused');
    const down = await send(customer, 'down');
    await until(async () => expect((await outboxOf(refused.msg_id))[0]!.status).toBe('failed'));
    await until(async () => expect((await outboxOf(down.msg_id))[0]!.status).toBe('failed'));
    expect(receiver.raw.filter((r) => r.body.msg_id === refused.msg_id)).toHaveLength(1);
    expect(receiver.raw.filter((r) => r.body.msg_id === down.msg_id)).toHaveLength(4);
    expect(await statusOf(customer, refused.msg_id)).toBe('failed');
    expect(await statusOf(customer, down.msg_id)).toBe('failed');
    expect((await outboxOf(down.msg_id))[0]!.last_error).toMatch(/HTTP 500/);
  });

  it('a media message carries its bytes; a deletion for all is sent too', async () => {
    const customer = await platformChat(t, seat.phones[0]!);
    const media = await uploaded(t, seat.token, 'image', 'photo.png');
    const msg = await send(customer, 'a photo', { type: 'image', media_id: media.media_id });
    await until(async () =>
      expect(receiver.delivered.has(`parley-${msg.msg_id}-message`)).toBe(true),
    );
    const body = receiver.delivered.get(`parley-${msg.msg_id}-message`)!;
    expect(body.kind === 'message' && body.media).toMatchObject({ mime: 'image/png' });
    if (body.kind !== 'message' || !body.media) throw new Error('no media');
    expect(Buffer.from(body.media.data, 'base64').equals(corpus('photo.png'))).toBe(true);

    const del = await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: msg.msg_id, scope: 'all' },
      seat.token,
    );
    expect(del.code).toBe('000000');
    await until(async () =>
      expect(receiver.delivered.has(`parley-${msg.msg_id}-delete`)).toBe(true),
    );
    expect(receiver.delivered.get(`parley-${msg.msg_id}-delete`)).toMatchObject({
      kind: 'delete',
      external_id: `ext-parley-${msg.msg_id}-message`,
      customer,
    });
  });

  it('each item of a batch goes through the outbox', async () => {
    const customers = [
      await platformChat(t, seat.phones[0]!),
      await platformChat(t, seat.phones[0]!),
    ];
    const sessions = [];
    for (const c of customers) {
      const rec = await t.call(
        '/v1/seat/chat/getChatRecord',
        { send_phone: seat.phones[0]!, receiver_phone: c },
        seat.token,
      );
      sessions.push(rec.data.list[0]!.session_id);
    }
    const res = await t.call(
      '/v1/seat/chat/batch_message',
      {
        batch_id: `batch-outbox-${++n}`,
        session_ids: sessions,
        type: 'text',
        content: 'to everyone',
      },
      seat.token,
    );
    expect(res.code).toBe('000000');
    await until(async () => {
      const got = receiver.raw.filter(
        (r) => r.body.kind === 'message' && r.body.content === 'to everyone' && r.answered === 200,
      );
      expect(got.map((r) => r.body.customer).sort()).toEqual([...customers].sort());
    });
  });

  it('several workers on one database (one per instance) deliver each item once', async () => {
    // Three more workers, as three more server instances would run, on the same database.
    const { services, database } = t.app.parley;
    const workers = [1, 2, 3].map(
      () =>
        new OutboxWorker(database.db, services.channels, services.media, services.events, {
          dialect: t.app.parley.config.databaseUrl ? 'pg' : 'sqlite',
          maxAttempts: 4,
          retryBaseMs: 10,
          leaseMs: 5_000,
          pollMs: 5,
          batchSize: 2,
          log: t.app.log,
        }),
    );
    workers.forEach((w) => w.start());
    try {
      const customer = await platformChat(t, seat.phones[0]!);
      const sent: { msg_id: number }[] = [];
      for (let i = 0; i < 30; i++) sent.push(await send(customer, `raced ${i}`));
      const keys = sent.map((m) => `parley-${m.msg_id}-message`);
      await until(async () => expect(keys.filter((k) => receiver.delivered.has(k))).toEqual(keys));
      await until(async () => {
        for (const m of sent) expect((await outboxOf(m.msg_id))[0]!.status).toBe('done');
      });
      // Not only deduplicated at the receiver: each was POSTed once.
      const posts = receiver.raw.filter((r) => keys.includes(r.key));
      expect(posts).toHaveLength(keys.length);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  });
});
