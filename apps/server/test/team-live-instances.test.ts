import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS, type ServerFrame } from '@parley/protocol';
import { signedHeaders } from '../src/channels/platform/platform-signature.js';
import { freshPgDatabase } from './instance-database.js';
import { cliOk, post, startServer, type ServerProcess } from './server-process.js';
import { PushClient } from './ws-client.js';

/**
 * Issue 35, "Live everywhere": a team's members on two instances of the built server (one
 * PostgreSQL database, one Redis, as docs/deploy.md runs them), each member's console holding
 * the push socket the console holds. A new queued chat, a take and a hand-over reach every
 * member's console within 1 s, whichever instance wrote them; a console that drops and resumes
 * (on the other instance, `last_event_id`, as PushConnection does) gets every event it missed,
 * once and in order. The PostgreSQL project only.
 */
const REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-teamlive-'));
const SECRET = 'team-live-platform-secret';
const env: Record<string, string> = {
  REDIS_URL,
  PARLEY_DATA_DIR: dataDir,
  PARLEY_DEMO: 'off',
  PARLEY_WS_HEARTBEAT_MS: '1000',
  PARLEY_PLATFORM_SECRET: SECRET,
};
/** The bound: from the call's answer to the frame on another instance's socket. */
const LIVE_MS = 1000;
const PHONE = '+15550135001';
const PASSWORD = 'correct-horse-1';

const servers: ServerProcess[] = [];
let database: Awaited<ReturnType<typeof freshPgDatabase>>;
let db: pg.Client;
let a: string;
let b: string;

interface Member {
  name: string;
  seatId: number;
  token: string;
}
const members: Record<'ana' | 'bo' | 'cy', Member> = {} as never;

beforeAll(async () => {
  database = await freshPgDatabase('parley_teamlive');
  env.DATABASE_URL = database.url;
  db = new pg.Client({ connectionString: database.url });
  servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  [a, b] = servers.map((s) => s.base) as [string, string];
  await db.connect();
  for (const name of ['ana', 'bo', 'cy'] as const) {
    await cliOk(env, 'seat:create', `live-${name}`, '--password', PASSWORD);
    const login = await post(a, '/v1/seat/chat/login', {
      account: `live-${name}`,
      password: PASSWORD,
    });
    expect(login.code, JSON.stringify(login)).toBe('000000');
    const { rows } = await db.query<{ id: number }>('select id from seats where account = $1', [
      `live-${name}`,
    ]);
    members[name] = { name, seatId: rows[0]!.id, token: login.data.token as string };
  }
  await cliOk(env, 'account:add', PHONE);
  await cliOk(env, 'account:assign', PHONE, 'live-ana');
  await cliOk(env, 'admin:create', 'live-owner', '--password', PASSWORD);
  const owner = await post(b, '/v1/admin/login', { account: 'live-owner', password: PASSWORD });
  expect(owner.code, JSON.stringify(owner)).toBe('000000');
  const { rows } = await db.query<{ id: number }>(
    'select id from phone_accounts where send_phone = $1',
    [PHONE],
  );
  const team = await post(
    b,
    '/v1/admin/teams/set',
    {
      account_id: rows[0]!.id,
      routing: 'manual',
      capacity: 10,
      member_ids: Object.values(members).map((m) => m.seatId),
    },
    owner.data.token as string,
  );
  expect(team.code, JSON.stringify(team)).toBe('000000');
}, 120_000);

afterAll(async () => {
  await db?.end().catch(() => undefined);
  const codes = await Promise.all(servers.map((s) => s.stop()));
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  expect(codes).toEqual(servers.map(() => 0));
});

let inbound = 0;
/** A new customer writes to the team number through instance `base`'s platform webhook. */
async function customerWrites(base: string, customer: string, content: string) {
  const body = JSON.stringify({
    id: `team-live-${++inbound}`,
    account: PHONE,
    customer,
    name: `Customer ${inbound}`,
    type: 'text',
    content,
  });
  const res = await fetch(base + PLATFORM_PATHS.message, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, body) },
    body,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { rows } = await db.query<{ id: number }>(
    'select id from sessions where send_phone = $1 and receiver_phone = $2',
    [PHONE, customer],
  );
  return rows[0]!.id;
}

type EventFrame = Extract<ServerFrame, { kind: 'event' }>;
type Created = { session: { session_id: number } };

/** A member's console: the push socket, said hello to, ready. */
async function consoleOf(base: string, member: Member, lastEventId = 0) {
  const socket = await PushClient.open(base, { token: member.token, last_event_id: lastEventId });
  await socket.waitFor('ready');
  return socket;
}

/** How long each awaited event took to arrive after its call was answered (logged). */
const lags: number[] = [];

/** The event of this type (matching) on the console within the second. */
async function within(socket: PushClient, type: string, match: (data: never) => boolean) {
  const from = Date.now();
  const found = await socket.until(
    () =>
      socket
        .events()
        .find((f: EventFrame) => f.type === type && match(f.data as never)) as EventFrame,
    `${type} event`,
    LIVE_MS,
  );
  lags.push(Date.now() - from);
  return found;
}

const queueOf =
  (count: number, has?: number) => (q: { count: number; chats: { session_id: number }[] }) =>
    q.count === count && (has === undefined || q.chats.some((c) => c.session_id === has));

/** Every event of the seat's log after `after`, as the server keeps it (ids and types). */
async function logOf(seatId: number, after: number) {
  const { rows } = await db.query<{ seq: string; type: string }>(
    'select seq, type from events where seat_id = $1 and seq > $2 order by seq',
    [seatId, after],
  );
  return rows.map((r) => ({ id: Number(r.seq), type: r.type }));
}

describe('a team live across two instances (issue 35)', () => {
  it('a queued chat, a take and a hand-over reach every member within 1 s; a console that resumes misses nothing', async () => {
    const { ana, bo, cy } = members;
    // The members' consoles on different instances.
    const anaA = await consoleOf(a, ana);
    const boB = await consoleOf(b, bo);
    const cyB = await consoleOf(b, cy);
    const everyone = [anaA, boB, cyB];

    // 1. A customer writes through instance A: the chat waits in every member's queue.
    const first = await customerWrites(a, '+447700935001', 'Hello, anyone there?');
    await Promise.all(everyone.map((s) => within(s, 'team.queue', queueOf(1, first))));

    // 2. Ana takes it through instance B: it leaves every queue; Ana's list gains it.
    const taken = await post(b, '/v1/seat/team/take', { session_id: first }, ana.token);
    expect(taken.code, JSON.stringify(taken)).toBe('000000');
    await Promise.all([
      ...everyone.map((s) => within(s, 'team.queue', queueOf(0))),
      within(anaA, 'session.created', (d: Created) => d.session.session_id === first),
    ]);

    // 3. Ana hands it to Bo through instance A with a note: Bo (on B) is told at once.
    const handed = await post(
      a,
      '/v1/seat/team/handOver',
      { session_id: first, to_seat_id: bo.seatId, note: 'Refund, please check' },
      ana.token,
    );
    expect(handed.code, JSON.stringify(handed)).toBe('000000');
    await Promise.all([
      within(
        boB,
        'team.assigned',
        (d: {
          session_id: number;
          from: { seat_id: number } | null;
          note: { content: string } | null;
        }) =>
          d.session_id === first &&
          d.from?.seat_id === ana.seatId &&
          d.note?.content === 'Refund, please check',
      ),
      within(boB, 'session.created', (d: Created) => d.session.session_id === first),
      within(anaA, 'session.deleted', (d: { session_id: number }) => d.session_id === first),
    ]);

    // 4. Cy's console drops; meanwhile a chat queues (via B), Bo takes it (via A) and hands it
    // to Cy (via B). Cy resumes on the other instance from the last event it handled.
    const cySeen = cyB.events().at(-1)!.id;
    cyB.close();
    await cyB.waitForClose();
    const second = await customerWrites(b, '+447700935002', 'Second customer');
    await within(anaA, 'team.queue', queueOf(1, second));
    const bTake = await post(a, '/v1/seat/team/take', { session_id: second }, bo.token);
    expect(bTake.code, JSON.stringify(bTake)).toBe('000000');
    const toCy = await post(
      b,
      '/v1/seat/team/handOver',
      { session_id: second, to_seat_id: cy.seatId, note: 'Yours' },
      bo.token,
    );
    expect(toCy.code, JSON.stringify(toCy)).toBe('000000');
    const missed = await logOf(cy.seatId, cySeen);
    // What Cy missed: the queue with the chat, the queue without it, the chat handed to it.
    expect(missed.map((e) => e.type)).toEqual(
      expect.arrayContaining(['team.queue', 'team.assigned', 'session.created']),
    );
    const cyA = await consoleOf(a, cy, cySeen);
    const last = missed.at(-1)!.id;
    await cyA.until(
      () => (cyA.events().some((f) => f.id >= last) ? true : undefined),
      'the missed events',
      LIVE_MS,
    );
    // Every missed event once, in order, nothing else.
    expect(cyA.events().map((f) => ({ id: f.id, type: f.type }))).toEqual(missed);
    const assigned = cyA.events().find((f) => f.type === 'team.assigned')!;
    expect(assigned.data).toMatchObject({ session_id: second, note: { content: 'Yours' } });

    // 5. Live again on the resumed socket: a third chat queues (via A) and reaches all three.
    const third = await customerWrites(a, '+447700935003', 'Third customer');
    await Promise.all([anaA, boB, cyA].map((s) => within(s, 'team.queue', queueOf(1, third))));
    for (const s of [anaA, boB, cyA]) s.close();
    console.log(
      `team events across instances: ${lags.length} awaited, slowest ${Math.max(...lags)} ms`,
    );
  }, 60_000);
});
