import { sql } from 'kysely';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratorOf } from '../src/db/migrate.js';
import { LocalDeepl } from './engine-servers.js';
import { createChat, createSeat, type ChatFixture, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

/**
 * PostgreSQL only (vitest.config.ts): while the instance listens to the database's notices of
 * list changes (migration 026), an unchanged list is answered without any query; a change by
 * anyone reaches it by notice; and without the notices (the feed's connection lost) it asks
 * the database again. "Without any query" is seen from outside: the answer comes while another
 * connection holds the version table locked, which any read of it would wait for.
 */
let t: TestApp;
let seat: SeatFixture;
let chat: ChatFixture;
beforeAll(async () => {
  t = await createTestApp();
  seat = await createSeat(t, 'notices');
  chat = await createChat(t.db, seat, { unread: 1, inbound: 1 });
});
afterAll(() => t?.close());

const readPage = (app = t, s = seat) =>
  app
    .call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: s.groups.ungrouped, user_time_type: 1, page_size: 50 },
      s.token,
    )
    .then((r) => r.data);
const readList = (app = t, s = seat) =>
  app.call('/v1/seat/chat/getGroupList', {}, s.token).then((r) => r.data);

/** Another connection to the test's schema (straight to the database). */
async function connect(app = t): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: process.env.PARLEY_TEST_DATABASE_URL!,
    options: `-c search_path=${app.config.pgSchema}`,
  });
  await client.connect();
  return client;
}

const WAITED = Symbol('waited');

/**
 * Reads once, then again while the version table is locked: true when the second answer came
 * (and is the first's) within half a second, false when it waited for the lock.
 */
async function answersWithoutQuery(read: () => Promise<unknown>, app = t): Promise<boolean> {
  const expected = await read();
  const locker = await connect(app);
  let pending: Promise<unknown> | undefined;
  try {
    await locker.query('begin');
    await locker.query('lock table seat_list_versions in access exclusive mode');
    pending = read();
    const answer = await Promise.race([
      pending,
      new Promise((resolve) => setTimeout(() => resolve(WAITED), 500)),
    ]);
    if (answer === WAITED) return false;
    expect(answer).toEqual(expected);
    return true;
  } finally {
    await locker.query('rollback');
    await locker.end();
    await pending;
  }
}

/** Both reads are answered without a query (once the notices of earlier writes are in). */
async function expectUnasked(app = t, s = seat) {
  const page = () => answersWithoutQuery(() => readPage(app, s), app);
  const list = () => answersWithoutQuery(() => readList(app, s), app);
  await expect.poll(page, { timeout: 10_000 }).toBe(true);
  await expect.poll(list, { timeout: 10_000 }).toBe(true);
}

/** A change by hand (no event of the app): seen only through the database. */
async function remarkByHand(remark: string, app = t, c = chat) {
  await sql`update sessions set remark = ${remark} where id = ${c.sessionId}`.execute(app.db);
}
const remarkShown = async (app = t, s = seat) => (await readPage(app, s)).account_list[0]?.remark;

describe('list versions announced by the database (PostgreSQL)', () => {
  it('an unchanged list is answered with no query; a change by hand reaches it by notice', async () => {
    await expectUnasked();
    await remarkByHand('noticed');
    await expect.poll(remarkShown, { timeout: 2_000, interval: 20 }).toBe('noticed');
    await expectUnasked();
  });

  it('migration 026 goes back and up again, and the notices come again', async () => {
    const { db, dialect } = t.app.parley.database;
    const migrator = migratorOf(db, dialect, t.config.pgSchema);
    expect((await migrator.migrateTo('025-list-versions')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await expectUnasked();
    await remarkByHand('after the migration');
    await expect.poll(remarkShown, { timeout: 2_000, interval: 20 }).toBe('after the migration');
  });
});

describe('list versions when the notices are late or lost (PostgreSQL, through a proxy)', () => {
  // The instance reaches PostgreSQL through a proxy that can hold back what the database sends
  // to the feed's connection (its notices arrive late, as under load) or cut that connection.
  let proxy: Awaited<ReturnType<typeof pgProxy>>;
  let h: TestApp;
  let s: SeatFixture;
  let c: ChatFixture;
  let deepl: LocalDeepl;
  beforeAll(async () => {
    proxy = await pgProxy(process.env.PARLEY_TEST_DATABASE_URL!);
    deepl = await new LocalDeepl('notices-key').start();
    h = await createTestApp({
      databaseUrl: proxy.url,
      translation: {
        providers: [{ name: 'deepl', authKey: 'notices-key', apiUrl: deepl.url }],
        timeoutMs: 5_000,
        retries: 0,
        retryDelayMs: 5,
      },
    });
    s = await createSeat(h, 'held-notices');
    c = await createChat(h.db, s, { unread: 1, inbound: 1 });
  });
  afterAll(async () => {
    proxy?.hold(false);
    await h?.close();
    await proxy?.close();
    await deepl?.stop();
  });
  const shown = () => remarkShown(h, s);
  /** `fn` while the feed's traffic is held back (its notices and new connections wait). */
  const noticesHeld = async (fn: () => Promise<void>) => {
    proxy.hold(true);
    try {
      await fn();
    } finally {
      proxy.hold(false);
    }
  };

  it("a seat's own change shows at once, though the database's notice is held back", async () => {
    await expectUnasked(h, s);
    await noticesHeld(async () => {
      // The event of the seat's own change (committed here) makes the next read ask anyway.
      const answer = await h.call(
        '/v1/seat/chat/set_remark',
        { session_id: c.sessionId, remark: 'mine, at once' },
        s.token,
      );
      expect(answer.code, answer.raw).toBe('000000');
      expect(await shown()).toBe('mine, at once');
      // The control: a change by hand has no event here, so only its notice can tell.
      await remarkByHand('by hand', h, c);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await shown()).toBe('mine, at once');
    });
    await expect.poll(shown, { timeout: 2_000, interval: 20 }).toBe('by hand');
  });

  it("a seat's own change with no event (a detected customer language) shows at once too", async () => {
    await expectUnasked(h, s);
    await noticesHeld(async () => {
      const translated = await h.call(
        '/v1/seat/chat/translate/text_v2',
        { session_id: c.sessionId, texts: ['Привет'], target_lang: 'EN' },
        s.token,
      );
      expect(translated.code, translated.raw).toBe('000000');
      expect(translated.data.customer_language).toBe('RU');
      const page = await readPage(h, s);
      expect(page.account_list.find((x) => x.session_id === c.sessionId)?.customer_language).toBe(
        'RU',
      );
    });
  });

  it('a chat the fixtures write by hand is in the next read, though its notice comes late', async () => {
    // What CI saw (mark-unread.test.ts): the notice of createChat's insert arrived after the
    // test's next read, which answered the cached list. createChat now waits for the notice.
    const late = await createSeat(h, 'late-notice');
    await expectUnasked(h, late);
    const before = (await readList(h, late)).un_read_count;
    proxy.hold(true);
    const release = setTimeout(() => proxy.hold(false), 300);
    try {
      await createChat(h.db, late, { unread: 2, inbound: 2 });
      expect((await readList(h, late)).un_read_count).toBe(before + 2);
    } finally {
      clearTimeout(release);
      proxy.hold(false);
    }
  });

  it("the feed's connection lost: reads ask the database until it listens again", async () => {
    await expectUnasked(h, s);
    // Cut, and no new feed connection gets an answer until released.
    await noticesHeld(async () => {
      proxy.cutFeeds();
      // Its notice goes nowhere: the read must still see it.
      await remarkByHand('while deaf', h, c);
      await expect.poll(shown, { timeout: 2_000, interval: 20 }).toBe('while deaf');
    });
    // The feed listens again, and is trusted again.
    await expectUnasked(h, s);
    await remarkByHand('heard again', h, c);
    await expect.poll(shown, { timeout: 2_000, interval: 20 }).toBe('heard again');
  });
});

describe('list versions behind a connection that takes LISTEN but delivers nothing', () => {
  it('are never trusted: every read asks the database', async () => {
    const deaf = await pgProxy(process.env.PARLEY_TEST_DATABASE_URL!, { dropNotices: true });
    const d = await createTestApp({ databaseUrl: deaf.url });
    try {
      const s = await createSeat(d, 'deaf-feed');
      const c = await createChat(d.db, s, { unread: 1, inbound: 1 });
      await readPage(d, s);
      expect(await answersWithoutQuery(() => readPage(d, s), d)).toBe(false);
      expect(await answersWithoutQuery(() => readList(d, s), d)).toBe(false);
      await remarkByHand('asked', d, c);
      expect(await remarkShown(d, s)).toBe('asked');
    } finally {
      await d.close();
      await deaf.close();
    }
  });
});

/**
 * A TCP proxy to PostgreSQL. For the list-version feed's connections (told apart by their
 * application_name in the startup message): `hold(true)` stops passing on what the server
 * sends them until `hold(false)`; with `dropNotices` (from the start) it passes everything but
 * the notices, as a pooler in transaction mode would: LISTEN is taken, nothing is delivered.
 */
async function pgProxy(target: string, { dropNotices = false } = {}) {
  const { hostname, port } = new URL(target);
  const feeds = new Set<net.Socket>();
  const open = new Set<net.Socket>();
  let held = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port || 5432), hostname);
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
      feeds.delete(upstream);
    };
    for (const socket of [client, upstream]) socket.on('error', end).on('close', end);
    let feed = false;
    client.once('data', (startup: Buffer) => {
      feed = startup.includes('parley list versions');
      if (feed) {
        feeds.add(upstream);
        if (held) upstream.pause();
      }
      upstream.write(startup);
      client.pipe(upstream);
    });
    // The server's messages: a type byte and a length that counts itself, not the type.
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      if (!feed || !dropNotices) return client.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
        const size = 1 + pending.readInt32BE(1);
        // 'A': NotificationResponse.
        if (pending[0] !== 0x41) client.write(pending.subarray(0, size));
        pending = pending.subarray(size);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    hold(on: boolean) {
      held = on;
      for (const socket of feeds) {
        if (on) socket.pause();
        else socket.resume();
      }
    },
    /** Closes the feed's connections, as a restart of PostgreSQL or a network cut would. */
    cutFeeds() {
      for (const socket of feeds) socket.destroy();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
