import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_PATHS } from '@parley/protocol';
import { buildApp, type BuildOptions } from '../src/app.js';
import type { Config } from '../src/config.js';
import { migratorOf } from '../src/db/migrate.js';
import { MediaUrls } from '../src/modules/media/media-urls.js';
import { sandboxMediaUrl } from '../src/channels/sandbox/sandbox.presenter.js';
import { resolveMediaSecret } from '../src/modules/media/media.service.js';
import { createTestDatabaseConfig, testAppOf, usingPg, type TestApp } from './helper.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { corpus, uploaded } from './media-helpers.js';
import { browserKey, sandboxAs } from './sandbox-helpers.js';

/**
 * Who may reach the customer sandbox. It plays a customer without a seat token, so it must be
 * on only where it is meant to be (a demo database, or asked for), a customer number must
 * belong to one browser, and its media must not be fetched by counting.
 */

// What a start loads on its own: `auto` only seeds the embedded database, `on` PostgreSQL too.
const DEMO_LOADS: Config['demo'] = usingPg ? 'on' : 'auto';
const DEMO_PHONE = '+15550100001';

/** Apps built one after another on one database: the server restarted with other settings. */
async function database(overrides: Partial<Config> = {}) {
  const { config, cleanup } = await createTestDatabaseConfig({ sandbox: 'auto', ...overrides });
  const open: TestApp[] = [];
  return {
    async start(over: Partial<Config> = {}, options: BuildOptions = {}): Promise<TestApp> {
      const app = await buildApp({ ...config, ...over }, options);
      await app.ready();
      const t = testAppOf(app, { ...config, ...over });
      open.push(t);
      return t;
    },
    async stop(t: TestApp) {
      open.splice(open.indexOf(t), 1);
      await t.app.close();
    },
    async cleanup() {
      for (const t of open) await t.app.close();
      await cleanup();
    },
  };
}

/** Every sandbox route answers the route-not-found 404 (it is not registered). */
async function expectOff(t: TestApp) {
  const key = browserKey();
  for (const [method, url] of [
    ['GET', SANDBOX_PATHS.accounts],
    ['GET', `${SANDBOX_PATHS.chat}?account=${encodeURIComponent(DEMO_PHONE)}&customer=%2B15550001`],
    ['POST', SANDBOX_PATHS.send],
    ['GET', `${SANDBOX_PATHS.media}/1`],
  ] as const) {
    const res = await t.app.inject({
      method,
      url,
      headers: { 'content-type': 'application/json', 'x-parley-sandbox-key': key },
      payload:
        method === 'POST' ? JSON.stringify({ account: DEMO_PHONE, customer: '+1555' }) : undefined,
    });
    expect([res.statusCode, JSON.parse(res.body).code], `${method} ${url}`).toEqual([
      404,
      '404001',
    ]);
  }
}

describe('when the sandbox is on', () => {
  it('off on a database without the demo workspace (PARLEY_DEMO=off)', async () => {
    const db = await database({ demo: 'off' });
    try {
      await expectOff(await db.start({}, { autoLoadDemo: true }));
    } finally {
      await db.cleanup();
    }
  });

  it('off on a database that already had real seats when the demo would have loaded', async () => {
    const db = await database();
    try {
      const first = await db.start({ demo: 'off' });
      const real = await createSeat(first, 'real-operator');
      await db.stop(first);
      // The default start of an embedded database: the demo is not loaded over real seats.
      const t = await db.start({ demo: DEMO_LOADS }, { autoLoadDemo: true });
      expect(t.app.parley.demo.loaded).toBe(false);
      await expectOff(t);
      // Nobody can write into the real seat's account as a customer.
      const sent = await sandboxAs(t, browserKey()).send({
        account: real.phones[0],
        customer: nextPhone('+4483'),
        content: 'let me in',
      });
      expect(sent.code).toBe('404001');
      const rows = await t.db.selectFrom('messages').select('id').execute();
      expect(rows).toEqual([]);
    } finally {
      await db.cleanup();
    }
  });

  it('on once the demo workspace was loaded into the database, and after a restart', async () => {
    const db = await database();
    try {
      const t = await db.start({ demo: DEMO_LOADS }, { autoLoadDemo: true });
      expect(t.app.parley.demo.loaded).toBe(true);
      const accounts = await sandboxAs(t, null).get(SANDBOX_PATHS.accounts);
      expect(accounts.code).toBe('000000');
      expect(accounts.data!.list).toContainEqual(
        expect.objectContaining({ send_phone: DEMO_PHONE }),
      );
      await db.stop(t);
      // The database remembers it held the demo, whatever PARLEY_DEMO says now.
      const again = await db.start({ demo: 'off' });
      expect((await sandboxAs(again, null).get(SANDBOX_PATHS.accounts)).code).toBe('000000');
    } finally {
      await db.cleanup();
    }
  });

  it('a database that got the demo before the mark existed is marked by the upgrade', async () => {
    const db = await database();
    try {
      const t = await db.start({ demo: DEMO_LOADS }, { autoLoadDemo: true });
      // Back to the schema before 015 (no mark, no bindings), as an older server left it.
      const back = await migratorOf(t.db, usingPg ? 'pg' : 'sqlite', t.config.pgSchema).migrateTo(
        '014-inbound-messages',
      );
      expect(back.error).toBeUndefined();
      await db.stop(t);
      const upgraded = await db.start({ demo: 'off' });
      expect((await sandboxAs(upgraded, null).get(SANDBOX_PATHS.accounts)).code).toBe('000000');
    } finally {
      await db.cleanup();
    }
  });

  it('on with PARLEY_SANDBOX=on without the demo; off with PARLEY_SANDBOX=off despite it', async () => {
    const db = await database({ demo: 'off' });
    const other = await database();
    try {
      const t = await db.start({ sandbox: 'on' });
      const seat = await createSeat(t, 'asked-for');
      const accounts = await sandboxAs(t, null).get(SANDBOX_PATHS.accounts);
      expect(accounts.data!.list).toContainEqual({ send_phone: seat.phones[0], label: 'line 1' });

      const demo = await other.start({ demo: 'on', sandbox: 'off' }, { autoLoadDemo: true });
      expect(demo.app.parley.demo.loaded).toBe(true);
      await expectOff(demo);
    } finally {
      await db.cleanup();
      await other.cleanup();
    }
  });
});

describe('a customer belongs to one browser', () => {
  const until = (fn: () => Promise<void>) => vi.waitFor(fn, { timeout: 15_000, interval: 20 });
  let db: Awaited<ReturnType<typeof database>>;
  let t: TestApp;
  let seat: SeatFixture;

  beforeAll(async () => {
    db = await database();
    t = await db.start({ demo: DEMO_LOADS }, { autoLoadDemo: true });
    seat = await createSeat(t, 'sandbox-claims');
  });
  afterAll(async () => db?.cleanup());

  const reply = async (customer: string, content: string, id: string) => {
    const res = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content,
        client_msg_id: id,
      },
      seat.token,
    );
    expect(res.code, res.raw).toBe('000000');
    return res.data.msg_id;
  };
  const record = async (customer: string) =>
    (
      await t.call(
        '/v1/seat/chat/getChatRecord',
        { send_phone: seat.phones[0]!, receiver_phone: customer },
        seat.token,
      )
    ).data.list;

  it("another browser can neither read the operator's replies nor write as the customer", async () => {
    const owner = sandboxAs(t, browserKey());
    const stranger = sandboxAs(t, browserKey());
    const customer = nextPhone('+4484');
    const account = seat.phones[0]!;
    expect((await owner.send({ account, customer, content: 'my order?' })).code).toBe('000000');
    const msgId = await reply(customer, 'Your code is 4711', 'claim-reply-0001');
    await until(async () => {
      const mine = await owner.chat(account, customer, false);
      expect(mine.data!.list.map((e) => e.content)).toContain('Your code is 4711');
    });

    const read = await stranger.chat(account, customer);
    expect(read).toMatchObject({ code: '400003', data: { reason: 'customer_taken' } });
    expect(JSON.stringify(read)).not.toContain('4711');
    const wrote = await stranger.send({ account, customer, content: 'ignore that, send it here' });
    expect(wrote.code).toBe('400003');
    expect((await record(customer)).map((m) => m.content)).toEqual([
      'my order?',
      'Your code is 4711',
    ]);
    // Its fetch did not receipt the reply either: still only delivered, not read.
    expect((await record(customer)).find((m) => m.msg_id === msgId)!.status).toBe('delivered');

    // Without a key, or a key too short to be a browser's: the call names the header.
    for (const keyless of [sandboxAs(t, null), sandboxAs(t, 'short')]) {
      const res = await keyless.chat(account, customer);
      expect(res.code).toBe('100001');
      expect(JSON.stringify(res)).toContain('x-parley-sandbox-key');
      expect((await keyless.send({ account, customer, content: 'hi' })).code).toBe('100001');
    }
    // The owner goes on as before.
    expect((await owner.send({ account, customer, content: 'thanks' })).code).toBe('000000');
  });

  it('a demo customer no browser played yet: the first browser to use the number holds it', async () => {
    const chat = await t.db
      .selectFrom('sessions')
      .select(['send_phone', 'receiver_phone'])
      .where('send_phone', '=', DEMO_PHONE)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const first = sandboxAs(t, browserKey());
    const second = sandboxAs(t, browserKey());
    expect((await first.chat(chat.send_phone, chat.receiver_phone)).code).toBe('000000');
    expect((await second.chat(chat.send_phone, chat.receiver_phone)).code).toBe('400003');
    // Bound per account: the same number on another account is another customer.
    expect((await second.chat(seat.phones[0]!, chat.receiver_phone)).code).toBe('000000');
    // Only the key's hash is kept.
    const stored = await t.db.selectFrom('sandbox_customers').select('key_hash').execute();
    expect(stored.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash))).toBe(true);
  });
});

describe("the sandbox's media", () => {
  let db: Awaited<ReturnType<typeof database>>;
  let t: TestApp;
  let seat: SeatFixture;
  const owner = () => sandboxAs(t, key);
  const key = browserKey();

  beforeAll(async () => {
    db = await database({ demo: 'off' });
    t = await db.start({ sandbox: 'on' });
    seat = await createSeat(t, 'sandbox-media');
  });
  afterAll(async () => db?.cleanup());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('is served only through signed, expiring URLs: a counted, tampered or expired one is refused', async () => {
    const customer = nextPhone('+4485');
    const sent = await owner().send({
      account: seat.phones[0],
      customer,
      type: 'image',
      media: { data: corpus('photo.png').toString('base64'), file_name: 'photo.png' },
    });
    expect(sent.code).toBe('000000');
    const url = new URL(sent.data.media_url!, 'http://x');
    expect(url.pathname).not.toMatch(/\/media\/\d+$/);
    expect([...url.searchParams.keys()].sort()).toEqual(['entry', 'exp', 'sig']);
    const served = await get(sent.data.media_url!);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(corpus('photo.png'))).toBe(true);

    const entry = url.searchParams.get('entry')!;
    const exp = url.searchParams.get('exp')!;
    const sig = url.searchParams.get('sig')!;
    const mediaPath = url.pathname;
    const refused = async (u: string, status: number, code: string) => {
      const res = await get(u);
      expect([res.statusCode, JSON.parse(res.body).code], u).toEqual([status, code]);
      expect(res.rawPayload.includes(corpus('photo.png').subarray(0, 64))).toBe(false);
    };
    // The old sequential form, counted ids.
    for (let id = 1; id <= Number(entry) + 1; id++) {
      await refused(`${SANDBOX_PATHS.media}/${id}`, 403, '400003');
    }
    // Tampered: another entry, another expiry, another signature.
    await refused(`${mediaPath}?entry=${Number(entry) + 1}&exp=${exp}&sig=${sig}`, 403, '400003');
    await refused(
      `${mediaPath}?entry=${entry}&exp=${Number(exp) + 86400}&sig=${sig}`,
      403,
      '400003',
    );
    await refused(
      `${mediaPath}?entry=${entry}&exp=${exp}&sig=${'A'.repeat(sig.length)}`,
      403,
      '400003',
    );
    // A seat's signature is not the sandbox's.
    const seatUrls = t.services.media.urls.urlsFor(
      seat.seatId,
      url.pathname.split('/').pop()!,
      false,
    );
    await refused(
      `${mediaPath}?entry=${entry}&${new URL(seatUrls.url, 'http://x').searchParams}`,
      403,
      '400003',
    );
    // Signed by the server, but expired.
    const secret = await resolveMediaSecret(t.db, t.config);
    const past = new MediaUrls(secret, () => Date.now() - 3 * 24 * 3600_000);
    const expired = await get(sandboxMediaUrl(past, Number(entry), mediaPath.split('/').pop()!));
    expect([expired.statusCode, JSON.parse(expired.body).data.reason]).toEqual([403, 'expired']);
  });

  it("a retracted message's URL stops serving", async () => {
    const customer = nextPhone('+4485');
    await owner().send({ account: seat.phones[0], customer, content: 'send a photo' });
    const media = await uploaded(t, seat.token, 'image', 'photo.jpg');
    const sent = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'image',
        content: '',
        media_id: media.media_id,
        client_msg_id: 'media-retract-0001',
      },
      seat.token,
    );
    let url = '';
    await vi.waitFor(
      async () => {
        const out = (await owner().chat(seat.phones[0]!, customer)).data!.list[1];
        expect(out?.media_url).toBeTruthy();
        url = out!.media_url!;
      },
      { timeout: 15_000, interval: 20 },
    );
    expect((await get(url)).statusCode).toBe(200);
    await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: sent.data.msg_id, scope: 'all' },
      seat.token,
    );
    await vi.waitFor(async () => expect((await get(url)).statusCode).toBe(404), {
      timeout: 15_000,
      interval: 20,
    });
  });

  it('an SVG sent through the sandbox downloads as an inert attachment', async () => {
    const sent = await owner().send({
      account: seat.phones[0],
      customer: nextPhone('+4485'),
      type: 'file',
      media: { data: corpus('script.svg').toString('base64'), file_name: 'script.svg' },
    });
    expect(sent.code).toBe('000000');
    // Not by its entry's number: only through its signed URL.
    expect((await get(`${SANDBOX_PATHS.media}/${sent.data.id}`)).statusCode).toBe(403);
    const res = await get(sent.data.media_url!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="script\.svg"/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.rawPayload.equals(corpus('script.svg'))).toBe(true);
  });
});
