import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { CompiledQuery, LogEvent } from 'kysely';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { buildApp } from '../src/app.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { inTransaction } from '../src/lib/tx.js';
import { eventsRepository } from '../src/modules/events/events.repository.js';
import { settingsRepository } from '../src/modules/settings/settings.repository.js';
import { MAX_NOTICE_CHARS, RedisFanOut } from '../src/realtime/fan-out.js';
import { framesOf, RealtimeHub, type PushSocket } from '../src/realtime/hub.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';
import { platformPost } from './platform-helpers.js';

/**
 * Two instances on one database and one Redis (issue 32, "two instances as fast as one"):
 * instance A (the app) commits a customer's message; instance B (a hub and its Redis fan-out
 * on a connection of its own that logs every statement) holds the seat's consoles. A notice
 * carries the committed rows, so B sends them without reading the event log when they follow
 * what its sockets were sent (before: one read of the log per notice per seat on every other
 * instance), and reads the log when they do not, missing and doubling nothing. The test owns
 * its Redis (a private `redis-server`): other runs' notices on a shared one would be reads of
 * their own.
 */
let redisPort = 0;
let redisServer: ChildProcess | null = null;
let redis: Redis;
let t: TestApp;
let cleanup: () => Promise<void>;
let traced: DatabaseHandle;
let hubB: RealtimeHub;
let fanOutB: RedisFanOut;
let recording: CompiledQuery[] | null = null;

/** A console's socket on B, as `ws` is handed frames (the event frames it was sent, parsed). */
class Console implements PushSocket {
  readyState = 1;
  readonly raw: (string | Buffer)[] = [];
  send(data: string | Buffer): void {
    this.raw.push(data);
  }
  /** The event number of the `ready` frame (what the console has seen). */
  start(): number {
    return (JSON.parse(String(this.raw[0])) as { last_event_id: number }).last_event_id;
  }
  events(): { id: number; type: string }[] {
    return this.raw
      .map((f) => JSON.parse(String(f)) as { kind: string; id: number; type: string })
      .filter((f) => f.kind === 'event');
  }
  ping(): void {}
  close(): void {
    this.readyState = 3;
  }
  terminate(): void {
    this.readyState = 3;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function until<T>(what: string, check: () => T | undefined | false, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  redisPort = await freePort();
  redisServer = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await until('redis-server', () => {
    try {
      return execFileSync('redis-cli', ['-p', String(redisPort), 'ping'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).startsWith('PONG');
    } catch {
      return false;
    }
  });
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  redis = new Redis(redisUrl);
  const made = await createTestDatabaseConfig({
    realtime: { redisUrl, retentionHours: 24, heartbeatMs: 600_000, pollMs: 100 },
  });
  cleanup = made.cleanup;
  const app = await buildApp(made.config);
  await app.ready();
  t = testAppOf(app, made.config);
  traced = await openDatabase(made.config, {
    log: (event: LogEvent) => {
      if (event.level === 'query') recording?.push(event.query);
    },
  });
  hubB = new RealtimeHub(traced.db);
  fanOutB = new RedisFanOut(redisUrl, { hub: hubB, fallback: { db: traced.db, pollMs: 100 } });
  await fanOutB.start();
  // Both instances listen for this database's rows notices.
  const scope = (await settingsRepository.get(t.db, 'redis_notice_scope'))!.value;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [, count] = (await redis.pubsub('NUMSUB', `parley:events:rows:${scope}`)) as [
      string,
      number,
    ];
    if (count === 2) break;
    if (Date.now() > deadline) throw new Error('the instances did not subscribe');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

afterAll(async () => {
  await fanOutB?.stop();
  await traced?.close();
  await t?.app.close();
  await cleanup?.();
  redis?.disconnect();
  redisServer?.kill('SIGKILL');
});

/** B's consoles of a new seat, joined as fresh consoles (nothing missed). */
async function consolesOnB(seat: SeatFixture, n: number): Promise<Console[]> {
  const consoles = Array.from({ length: n }, () => new Console());
  for (const socket of consoles) {
    await hubB.join({ socket, seatId: seat.seatId, tokenHash: 'b' }, 0, 600_000);
  }
  await hubB.settle();
  return consoles;
}

/** A customer's message, received by instance A. */
async function customerWritesToA(seat: SeatFixture, content: string) {
  const answer = await platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({
      id: `rows-${content}-${process.pid}`,
      account: seat.phones[0],
      customer: nextPhone('+4475'),
      type: 'text',
      content,
    }),
  );
  expect(answer.code).toBe('000000');
}

async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  recording = [];
  try {
    await work();
    return recording.map((q) => q.sql);
  } finally {
    recording = null;
  }
}

describe('notices between instances carry the committed rows', () => {
  it('B sends the rows of A’s commit to its consoles without a statement, byte for byte the log’s', async () => {
    const seat = await createSeat(t, 'rows-follow');
    const consoles = await consolesOnB(seat, 3);
    const sql = await statementsOf(async () => {
      await customerWritesToA(seat, 'hello B');
      // A new customer's message: the chat, the message, the seat's group list.
      await until('the frames on B', () => consoles.every((c) => c.events().length === 3));
      await hubB.settle();
    });
    expect(sql).toEqual([]);
    const logged = await eventsRepository.after(t.db, seat.seatId, consoles[0]!.start(), 100);
    const frames = framesOf(logged).map((f) => String(f));
    for (const c of consoles) expect(c.raw.slice(1).map(String)).toEqual(frames);
    expect(consoles[0]!.events().map((e) => e.type)).toEqual([
      'session.created',
      'message.created',
      'groups.changed',
    ]);
  });

  it('rows that do not follow what B sent: B reads the log, and each console gets every event once, in order', async () => {
    const seat = await createSeat(t, 'rows-gap');
    const consoles = await consolesOnB(seat, 2);
    // An event committed and never announced (as if its notice were lost on the way).
    await inTransaction(t.db, (trx) =>
      eventsRepository.append(trx, {
        seat_id: seat.seatId,
        type: 'groups.changed',
        data: JSON.stringify({ reason: 'unannounced' }),
        at: Date.now(),
        request_id: null,
      }),
    );
    const sql = await statementsOf(async () => {
      await customerWritesToA(seat, 'after a gap');
      await until('the frames on B', () => consoles.every((c) => c.events().length === 4));
      await hubB.settle();
    });
    expect(sql.filter((q) => /from "events"/.test(q)).length).toBeGreaterThan(0);
    const logged = await eventsRepository.after(t.db, seat.seatId, consoles[0]!.start(), 100);
    expect(logged).toHaveLength(4);
    for (const c of consoles) {
      expect(c.events().map((e) => e.id)).toEqual(logged.map((r) => Number(r.seq)));
    }
    // Nothing more arrives later (no double from the notice's rows).
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const c of consoles) expect(c.events()).toHaveLength(4);
  });

  it('rows too large to carry, or not consecutive, go as the seat id: B reads them from the log', async () => {
    const seat = await createSeat(t, 'rows-large');
    const [socket] = await consolesOnB(seat, 1);
    const fanOutA = t.app.parley.realtime.fanOut;
    const append = async (data: string) => {
      const row = {
        seat_id: seat.seatId,
        type: 'groups.changed',
        data,
        at: Date.now(),
        request_id: null,
      };
      const seq = await inTransaction(t.db, (trx) => eventsRepository.append(trx, row));
      return { ...row, seq };
    };
    // Past MAX_NOTICE_CHARS: A announces it (as the bus does after the commit) with its row.
    const large = await append(JSON.stringify({ note: 'x'.repeat(MAX_NOTICE_CHARS) }));
    const readLarge = await statementsOf(async () => {
      fanOutA.notify(seat.seatId, [large]);
      await until('the large event on B', () => socket!.events().length === 1);
      await hubB.settle();
    });
    expect(readLarge.some((q) => /from "events"/.test(q))).toBe(true);
    // Two of the turn's changes with another's event between them (never announced).
    const first = await append('{}');
    await append('{}');
    const third = await append('{}');
    const readGap = await statementsOf(async () => {
      fanOutA.notify(seat.seatId, [first]);
      fanOutA.notify(seat.seatId, [third]);
      await until('the three events on B', () => socket!.events().length === 4);
      await hubB.settle();
    });
    expect(readGap.some((q) => /from "events"/.test(q))).toBe(true);
    expect(socket!.events().map((e) => e.id)).toEqual([1, 2, 3, 4].map((i) => socket!.start() + i));
  });

  it('a seat id alone (the CLI, the previous release) is read from the log; one with a trailing space came with its rows', async () => {
    const seat = await createSeat(t, 'rows-bare');
    const [socket] = await consolesOnB(seat, 1);
    const append = () =>
      inTransaction(t.db, (trx) =>
        eventsRepository.append(trx, {
          seat_id: seat.seatId,
          type: 'groups.changed',
          data: '{}',
          at: Date.now(),
          request_id: null,
        }),
      );
    await append();
    const marked = await statementsOf(async () => {
      await redis.publish('parley:events', `${seat.seatId} `);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await hubB.settle();
    });
    expect(marked).toEqual([]);
    expect(socket!.events()).toEqual([]);
    await redis.publish('parley:events', String(seat.seatId));
    await until('the event on B', () => socket!.events().length === 1);
    expect(socket!.events().map((e) => e.id)).toEqual([socket!.start() + 1]);
  });
});
