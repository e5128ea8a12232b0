import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS, type PushPayload } from '@parley/protocol';
import { resolveVapidKeys } from '../src/modules/push/push.service.js';
import { LocalDeepl } from './engine-servers.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { LocalPushService, PushDevice } from './local-push-service.js';
import { platformPost } from './platform-helpers.js';

/**
 * Web Push (issue 37) against a local push service of RFC 8030 that checks VAPID (RFC 8292);
 * each message is decrypted here with the device's keys (RFC 8291, aes128gcm) as a browser
 * would, and its payload read.
 */
let t: TestApp;
let push: LocalPushService;
let deepl: LocalDeepl;
let seat: SeatFixture;
let other: SeatFixture;
let devices = 0;

beforeAll(async () => {
  push = await new LocalPushService().start();
  deepl = await new LocalDeepl('push-key').start();
  t = await createTestApp({
    // The local push service: localhost, with its own certificate authority.
    push: { hosts: ['localhost'], privateHosts: ['localhost'], caFile: push.caFile },
    translation: {
      providers: [{ name: 'deepl', authKey: 'push-key', apiUrl: deepl.url }],
      timeoutMs: 5_000,
      retries: 0,
      retryDelayMs: 5,
    },
  });
  seat = await createSeat(t, 'push-seat');
  other = await createSeat(t, 'push-other');
});
afterAll(async () => {
  await t?.close();
  await push?.close();
  await deepl?.stop();
});

const newDevice = () => new PushDevice(`${push.origin}/sub/${process.pid}-${++devices}`);

async function subscribe(s: SeatFixture, device: PushDevice, extra: object = {}) {
  return t.call('/v1/seat/push/subscribe', { ...device.subscription(), ...extra }, s.token);
}

let inbound = 0;
/** A customer writes to the seat's account; waits until its notifications have been sent. */
async function customerWrites(s: SeatFixture, content: string, customer = nextPhone('+4479')) {
  const res = await platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({
      id: `push-${process.pid}-${++inbound}`,
      account: s.phones[0],
      customer,
      name: 'Ana Souza',
      type: 'text',
      content,
    }),
  );
  expect(res.code).toBe('000000');
  await t.services.push.idle();
  return { customer, msgId: (res.data as { msg_id: number | null }).msg_id };
}

/** The pushes that arrived for a device since `from`, decrypted. */
function received(device: PushDevice, from = 0): PushPayload[] {
  const path = new URL(device.endpoint).pathname;
  return push.delivered
    .slice(from)
    .filter((d) => d.path === path)
    .map((d) => JSON.parse(device.decrypt(d.body)) as PushPayload);
}

async function sessionOf(s: SeatFixture, customer: string): Promise<number> {
  const book = await t.call('/v1/seat/chat/addressBook', { keyword: customer }, s.token);
  return (book.data as { list: { session_id: number }[] }).list[0]!.session_id;
}

describe('Web Push', () => {
  it('the VAPID key is made once and kept in the database for every instance', async () => {
    const key = await t.call('/v1/seat/push/key', {}, seat.token);
    expect(key.code).toBe('000000');
    expect(Buffer.from(key.data.public_key, 'base64url')).toHaveLength(65);
    // Another instance on the same database reads the same keys.
    expect((await resolveVapidKeys(t.db)).publicKey).toBe(key.data.public_key);
  });

  it("a customer's message reaches the subscribed device, encrypted to its keys, signed by the server's VAPID key", async () => {
    const device = newDevice();
    expect((await subscribe(seat, device)).code).toBe('000000');
    const before = push.delivered.length;
    const { customer } = await customerWrites(seat, 'Is my order on its way?');
    const [payload, ...more] = received(device, before);
    expect(more).toHaveLength(0);
    const sessionId = await sessionOf(seat, customer);
    expect(payload).toEqual({
      title: 'Ana Souza',
      body: 'Is my order on its way?',
      url: `/home/chat?chat=${sessionId}`,
      tag: `chat-${sessionId}`,
      session_id: sessionId,
    });
    const sent = push.delivered.at(-1)!;
    const key = await t.call('/v1/seat/push/key', {}, seat.token);
    expect(sent).toMatchObject({ encoding: 'aes128gcm', urgency: 'high', ttl: '3600' });
    expect(sent.vapidKey).toBe(key.data.public_key);

    // The operator's own reply is not notified; the other seat's device hears nothing of it.
    const theirs = newDevice();
    await subscribe(other, theirs);
    const at = push.delivered.length;
    const reply = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        content: 'Yes',
        client_msg_id: 'push-reply-0001',
      },
      seat.token,
    );
    expect(reply.code).toBe('000000');
    await t.services.push.idle();
    await customerWrites(seat, 'Thanks', customer);
    expect(received(device, at).map((p) => p.body)).toEqual(['Thanks']);
    expect(received(theirs, at)).toEqual([]);
    await t.call('/v1/seat/push/unsubscribe', { endpoint: theirs.endpoint }, other.token);
  });

  it('translated when the device auto-translates', async () => {
    const device = newDevice();
    await subscribe(seat, device, { translate_to: 'EN-GB' });
    const before = push.delivered.length;
    await customerWrites(seat, 'hola');
    expect(received(device, before).map((p) => p.body)).toEqual(['Hello']);
    await t.call('/v1/seat/push/unsubscribe', { endpoint: device.endpoint }, seat.token);
  });

  it('a blocked customer, an unsubscribed device, a logged-out login: nothing is sent', async () => {
    const device = newDevice();
    await subscribe(seat, device);
    const { customer } = await customerWrites(seat, 'first');
    const sessionId = await sessionOf(seat, customer);
    expect((await t.call('/v1/seat/chat/block', { session_id: sessionId }, seat.token)).code).toBe(
      '000000',
    );
    const at = push.delivered.length;
    await customerWrites(seat, 'while blocked', customer);
    expect(received(device, at)).toEqual([]);

    const removed = await t.call(
      '/v1/seat/push/unsubscribe',
      { endpoint: device.endpoint },
      seat.token,
    );
    expect(removed.data).toEqual({ removed: 1 });
    await customerWrites(seat, 'after the switch is off');
    expect(received(device, at)).toEqual([]);

    // A second login of the seat subscribes, then logs out: its subscription goes with it.
    const login = await t.call('/v1/seat/chat/login', {
      account: seat.account,
      password: 'correct-horse-1',
    });
    const phone = newDevice();
    await t.call('/v1/seat/push/subscribe', phone.subscription(), login.data.token);
    const mark = push.delivered.length;
    await customerWrites(seat, 'to the phone');
    expect(received(phone, mark).map((p) => p.body)).toEqual(['to the phone']);
    expect((await t.call('/v1/seat/chat/logout', {}, login.data.token)).code).toBe('000000');
    await customerWrites(seat, 'after logout');
    expect(received(phone, mark).map((p) => p.body)).toEqual(['to the phone']);
    await waitUntil(async () => (await rows(phone)) === 0);
  });

  it('a frozen seat loses every subscription', async () => {
    const frozen = await createSeat(t, 'push-frozen');
    const device = newDevice();
    await subscribe(frozen, device);
    expect(await rows(device)).toBe(1);
    await t.services.seats.setFrozen(frozen.account, true);
    await waitUntil(async () => (await rows(device)) === 0);
    const at = push.delivered.length;
    await customerWrites(frozen, 'to a frozen seat');
    expect(received(device, at)).toEqual([]);
  });

  it.each([404, 410])('a subscription the push service answers %i is deleted', async (status) => {
    const device = newDevice();
    await subscribe(seat, device);
    push.answers.set(new URL(device.endpoint).pathname, status);
    await customerWrites(seat, 'are you there?');
    expect(await rows(device)).toBe(0);
    const test = await t.call('/v1/seat/push/test', { endpoint: device.endpoint }, seat.token);
    expect(test.code).toBe('400001');
  });

  it('the test button sends a test notification to this device only', async () => {
    const device = newDevice();
    const second = newDevice();
    await subscribe(seat, device);
    await subscribe(seat, second);
    const at = push.delivered.length;
    const res = await t.call('/v1/seat/push/test', { endpoint: device.endpoint }, seat.token);
    expect(res).toMatchObject({ code: '000000', data: { sent: true } });
    expect(received(device, at)).toEqual([
      { title: 'Parley', body: '✓', url: '/home/chat', tag: 'parley-test', session_id: null },
    ]);
    expect(received(second, at)).toEqual([]);
    // Another seat cannot test (or reach) this seat's device.
    const theirs = await t.call('/v1/seat/push/test', { endpoint: device.endpoint }, other.token);
    expect(theirs.code).toBe('400001');
  });
});

describe('bad subscriptions are refused with a code and change nothing', () => {
  const device = () => newDevice().subscription();

  it.each([
    ['http://localhost:1/sub/x', 'not_https'],
    ['https://push.example.com/sub/x', 'host_not_allowed'],
    ['https://user:pw@localhost/sub/x', 'host_not_allowed'],
    ['https://10.0.0.1/sub/x', 'private_address'],
    ['https://127.0.0.1/sub/x', 'private_address'],
    ['https://[::1]/sub/x', 'private_address'],
    ['https://[::ffff:192.168.0.1]/sub/x', 'private_address'],
    ['https://169.254.169.254/latest', 'private_address'],
  ])('%s: 422002 %s', async (endpoint, reason) => {
    const before = await countAll();
    const res = await t.call('/v1/seat/push/subscribe', { ...device(), endpoint }, seat.token);
    expect(res).toMatchObject({ code: '422002', data: { reason } });
    expect(res.msg).not.toBe('');
    expect(await countAll()).toBe(before);
  });

  it('keys a browser never made: 100001', async () => {
    const sub = device();
    // 65 bytes starting 0x04 that are not a point of P-256.
    const notAPoint = Buffer.alloc(65, 7);
    notAPoint[0] = 4;
    const before = await countAll();
    for (const keys of [
      { p256dh: notAPoint.toString('base64url'), auth: sub.keys.auth },
      { p256dh: sub.keys.p256dh, auth: 'short' },
      { p256dh: 'A'.repeat(87), auth: sub.keys.auth },
    ]) {
      const res = await t.call('/v1/seat/push/subscribe', { ...sub, keys }, seat.token);
      expect(res.code).toBe('100001');
    }
    expect(await countAll()).toBe(before);
  });

  it("another seat's endpoint replayed: 500002, and the device stays its owner's", async () => {
    const owner = newDevice();
    await subscribe(seat, owner);
    const forger = new PushDevice(owner.endpoint);
    const res = await subscribe(other, forger);
    expect(res.code).toBe('500002');
    const at = push.delivered.length;
    await customerWrites(seat, 'still mine');
    // Decrypted with the owner's keys: the forger's never replaced them.
    expect(received(owner, at).map((p) => p.body)).toEqual(['still mine']);
  });

  it('without a login: 400002', async () => {
    const res = await t.call('/v1/seat/push/subscribe', device(), null);
    expect(res.code).toBe('400002');
  });
});

describe('a push service at a private address', () => {
  let strict: TestApp;
  beforeAll(async () => {
    // The same local service, but the rules allow no private address for it.
    strict = await createTestApp({
      push: { hosts: ['localhost'], privateHosts: [], caFile: push.caFile },
    });
  });
  afterAll(async () => strict?.close());

  it('is refused when subscribing, and never sent to, even when already stored', async () => {
    const s = await createSeat(strict, 'push-strict');
    const device = newDevice();
    const res = await strict.call('/v1/seat/push/subscribe', device.subscription(), s.token);
    expect(res).toMatchObject({ code: '422002', data: { reason: 'private_address' } });
    // A row stored before the name resolved to a private address: the connection is refused.
    const login = await strict.db
      .selectFrom('tokens')
      .select('token_hash')
      .where('seat_id', '=', s.seatId)
      .executeTakeFirstOrThrow();
    await strict.db
      .insertInto('push_subscriptions')
      .values({
        endpoint_hash: createHash('sha256').update(device.endpoint).digest('hex'),
        seat_id: s.seatId,
        token_hash: login.token_hash,
        endpoint: device.endpoint,
        p256dh: device.subscription().keys.p256dh,
        auth: device.subscription().keys.auth,
        translate_to: null,
        created_at: Date.now(),
      })
      .execute();
    const at = push.delivered.length;
    const sent = await strict.call('/v1/seat/push/test', { endpoint: device.endpoint }, s.token);
    expect(sent.code).not.toBe('000000');
    expect(push.delivered.length).toBe(at);
  });
});

async function rows(device: PushDevice): Promise<number> {
  const r = await t.db
    .selectFrom('push_subscriptions')
    .select('seat_id')
    .where('endpoint', '=', device.endpoint)
    .execute();
  return r.length;
}

async function countAll(): Promise<number> {
  return (await t.db.selectFrom('push_subscriptions').select('seat_id').execute()).length;
}

async function waitUntil(check: () => Promise<boolean>, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
