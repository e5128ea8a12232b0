import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Overview } from '@parley/protocol';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { platformAt, platformChat, SECRET } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';
import { LocalLibreTranslate } from './engine-servers.js';
import { AdminPushClient, adminCall, createAdmin } from './admin-helpers.js';

let t: TestApp;
let base: string;
let token: string;
let seat: SeatFixture;
let libre: LocalLibreTranslate;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** What the platform answers to deliveries (400: refused for good). */
let platformAnswer = 400;
const sockets: AdminPushClient[] = [];

beforeAll(async () => {
  receiver = await startReceiver(SECRET, () => platformAnswer);
  libre = await new LocalLibreTranslate().start();
  t = await createTestApp({
    platform: { ...platformAt(receiver.url), maxAttempts: 1 },
    translation: {
      providers: [{ name: 'libretranslate', url: libre.url, apiKey: null }],
      timeoutMs: 5_000,
      retries: 0,
      retryDelayMs: 5,
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = await createAdmin(t, 'overview-admin');
  seat = await createSeat(t, 'overview-seat');
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await t?.close();
  await receiver?.close();
  await libre?.stop();
});

const overview = async (tz = 0) =>
  (await adminCall(t, '/v1/admin/overview', { tz_offset_min: tz }, token)).data;
const seatRow = (o: Overview) => o.seats.find((s) => s.seat_id === seat.seatId)!;
let n = 0;
const reply = (customer: string, content = 'thanks, on it') =>
  t.call(
    '/v1/seat/chat/message',
    {
      send_phone: seat.phones[0]!,
      receiver_phone: customer,
      type: 'text',
      content,
      client_msg_id: `ov-${process.pid}-${++n}`,
    },
    seat.token,
  );

describe('the live overview', () => {
  it('moves with an inbound platform message and a reply, per seat and in total, pushed live', async () => {
    const socket = await AdminPushClient.open(base, { token });
    sockets.push(socket);
    await socket.waitForKind('ready');
    const start = await socket.overview(() => true);
    const before = seatRow(start);
    expect(start.totals.messages_in_today).toBe(
      start.seats.reduce((sum, s) => sum + s.messages_in_today, 0),
    );

    const customer = await platformChat(t, seat.phones[0]!);
    const waiting = await socket.overview(
      (o) => seatRow(o).messages_in_today === before.messages_in_today + 1,
    );
    expect(seatRow(waiting)).toMatchObject({ waiting_chats: before.waiting_chats + 1 });
    expect(waiting.totals.waiting_chats).toBe(start.totals.waiting_chats + 1);
    expect(waiting.totals.longest_wait_ms).toBeGreaterThanOrEqual(0);

    await new Promise((r) => setTimeout(r, 30));
    expect((await reply(customer)).code).toBe('000000');
    const answered = await socket.overview(
      (o) => seatRow(o).messages_out_today === before.messages_out_today + 1,
    );
    const row = seatRow(answered);
    expect(row.waiting_chats).toBe(before.waiting_chats);
    expect(row.first_responses_24h).toBe(before.first_responses_24h + 1);
    expect(row.median_first_response_ms).toBeGreaterThanOrEqual(30);
    expect(answered.totals.median_first_response_ms).not.toBeNull();

    // The same numbers by call; "today" starts at the console's midnight.
    const called = await overview();
    expect(seatRow(called).messages_in_today).toBe(before.messages_in_today + 1);
    expect(called.day_start % 86_400_000).toBe(0);
    const east = await overview(180);
    expect((east.day_start + 180 * 60_000) % 86_400_000).toBe(0);
  });

  // The server and this test share one event loop, as a loaded server shares its core: a
  // pong answered but not yet read when the next beat fires must not end the console's socket.
  it('keeps the admin socket through a held event loop (a late heartbeat drops nobody); a dead one is still dropped', async () => {
    const socket = await AdminPushClient.open(base, { token });
    sockets.push(socket);
    await socket.waitForKind('ready');
    const pings = () => socket.frames.filter((f) => f.kind === 'ping').length;
    const pinged = pings();
    // Held as the ping arrives: its pong is sent, unread by the server when the next beat is due.
    await socket.until(() => (pings() > pinged ? true : undefined), 'a ping');
    const release = Date.now() + 3 * t.config.realtime.heartbeatMs;
    while (Date.now() < release) {
      // a synchronous task holding the loop
    }
    const heldAt = pings();
    await socket.until(() => (pings() >= heldAt + 3 ? true : undefined), 'three more pings');
    expect(socket.closed).toBeNull();

    const dead = await AdminPushClient.open(base, { token }, { autoPong: false });
    sockets.push(dead);
    await dead.waitForKind('ready');
    // Terminated (no close handshake: 1006) at the first beat on time after a missed pong.
    expect((await dead.waitForClose()).code).toBe(1006);
    expect(socket.closed).toBeNull();
  });

  it('counts the failed delivery in the outbox, lists it with its error, and retries it', async () => {
    platformAnswer = 400;
    const customer = await platformChat(t, seat.phones[0]!);
    const sent = await reply(customer, 'this one will not get through');
    const msgId = sent.data.msg_id;
    let failed!: { outbox_id: number };
    await vi.waitFor(
      async () => {
        const list = await adminCall(t, '/v1/admin/outbox/list', { status: 'failed' }, token);
        const item = list.data.list.find((i) => i.msg_id === msgId);
        expect(item).toMatchObject({
          status: 'failed',
          seat_account: 'overview-seat',
          receiver_phone: customer,
          preview: 'this one will not get through',
        });
        expect(item!.last_error).toBeTruthy();
        failed = item!;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(seatRow(await overview()).outbox_failed).toBeGreaterThanOrEqual(1);

    platformAnswer = 200;
    const retried = await adminCall(
      t,
      '/v1/admin/outbox/retry',
      { outbox_id: failed.outbox_id },
      token,
    );
    expect(retried.code).toBe('000000');
    expect(retried.data.status).toBe('pending');
    await vi.waitFor(
      async () => {
        const row = await t.db
          .selectFrom('outbox')
          .select('status')
          .where('id', '=', failed.outbox_id)
          .executeTakeFirstOrThrow();
        expect(row.status).toBe('done');
      },
      { timeout: 10_000, interval: 50 },
    );
    // Delivered now: the seat's console sees its message sent.
    const record = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: seat.phones[0]!, receiver_phone: customer },
      seat.token,
    );
    expect(record.data.list.find((m) => m.msg_id === msgId)!.status).toBe('sent');
    const [audit] = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'outbox.retry')
      .where('target_id', '=', failed.outbox_id)
      .execute();
    expect(audit).toMatchObject({ actor: 'overview-admin' });
    expect(JSON.parse(audit!.before!).status).toBe('failed');

    // Not failed any more: 409001, nothing written.
    const again = await adminCall(
      t,
      '/v1/admin/outbox/retry',
      { outbox_id: failed.outbox_id },
      token,
    );
    expect(again.code).toBe('409001');
    expect(again.msg).toBe('Only a failed delivery can be retried');
    expect((await adminCall(t, '/v1/admin/outbox/retry', { outbox_id: 999_999 }, token)).code).toBe(
      '400001',
    );
    const audits = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'outbox.retry')
      .execute();
    expect(audits).toHaveLength(1);
  });

  it('pages the outbox list newest first and filters by seat', async () => {
    platformAnswer = 400;
    const customer = await platformChat(t, seat.phones[0]!);
    for (let i = 0; i < 3; i++) await reply(customer, `fail ${i}`);
    await vi.waitFor(
      async () => {
        const all = await adminCall(
          t,
          '/v1/admin/outbox/list',
          { status: 'failed', seat_id: seat.seatId },
          token,
        );
        expect(all.data.total).toBeGreaterThanOrEqual(3);
      },
      { timeout: 10_000, interval: 50 },
    );
    const first = await adminCall(
      t,
      '/v1/admin/outbox/list',
      { seat_id: seat.seatId, page_size: 2 },
      token,
    );
    expect(first.data.list).toHaveLength(2);
    expect(first.data.list[0]!.outbox_id).toBeGreaterThan(first.data.list[1]!.outbox_id);
    const next = await adminCall(
      t,
      '/v1/admin/outbox/list',
      { seat_id: seat.seatId, page_size: 2, cursor: first.data.next_cursor! },
      token,
    );
    expect(next.data.list[0]!.outbox_id).toBeLessThan(first.data.list[1]!.outbox_id);
    const other = await adminCall(t, '/v1/admin/outbox/list', { seat_id: 999_999 }, token);
    expect(other.data).toEqual({ list: [], total: 0, next_cursor: null });
    expect((await adminCall(t, '/v1/admin/outbox/list', { status: 'done' }, token)).code).toBe(
      '100001',
    );
  });

  it("counts today's translation characters per engine and the share the shared memory served", async () => {
    const before = (await overview()).translation;
    const text = 'Hello, where is my parcel today?';
    const translate = () =>
      t.call(
        '/v1/seat/chat/translate/text_v2',
        { texts: [text], source_lang: 'EN', target_lang: 'ES' },
        seat.token,
      );
    expect((await translate()).code).toBe('000000');
    const once = (await overview()).translation;
    const sent = once.engines.find((e) => e.engine === 'libretranslate')!.characters;
    expect(sent).toBe(
      (before.engines.find((e) => e.engine === 'libretranslate')?.characters ?? 0) + text.length,
    );
    expect(once.memory_characters).toBe(before.memory_characters);
    // The same text again: the memory answers, the engine gets nothing.
    expect((await translate()).data.translations[0]!.from_memory).toBe(true);
    const twice = (await overview()).translation;
    expect(twice.engines.find((e) => e.engine === 'libretranslate')!.characters).toBe(sent);
    expect(twice.memory_characters).toBe(before.memory_characters + text.length);
    expect(twice.total_characters).toBe(twice.memory_characters + sent);
    expect(twice.memory_share).toBeCloseTo(twice.memory_characters / twice.total_characters);
  });

  it('refuses a bad time zone offset with 100001', async () => {
    const res = await adminCall(t, '/v1/admin/overview', { tz_offset_min: 10_000 }, token);
    expect(res.code).toBe('100001');
    expect(res.data).toMatchObject({ fields: [{ path: 'tz_offset_min' }] });
  });
});
