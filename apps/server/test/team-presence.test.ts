import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS, type AdminCallPath, type ServerFrame } from '@parley/protocol';
import { buildApp } from '../src/app.js';
import { adminCall, createAdmin } from './admin-helpers.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';
import { platformPost } from './platform-helpers.js';
import { PushClient } from './ws-client.js';

/**
 * Issue 35, "who is looking": a member's console says it shows (or types in) a team chat; the
 * seats that may see the chat are told live, on whichever instance their console is connected
 * (two instances on one database and one Redis of the test's own), and nothing is stored. A
 * seat outside the team never hears of it and cannot speak of the chat. "A reply within 10 s
 * after another member's reply to the same customer asks first": 409005 unless confirmed. And
 * a member reads a queued chat's messages before taking it (team/chatRecord).
 */
type Presence = Extract<ServerFrame, { kind: 'presence' }>['data'];

let redisServer: ChildProcess | null = null;
let t: TestApp;
let other: FastifyInstance;
let cleanup: () => Promise<void>;
let baseA: string;
let baseB: string;
let ana: SeatFixture;
let bo: SeatFixture;
let cy: SeatFixture;
let teamPhone: string;
const sockets: PushClient[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function until(what: string, check: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  const redisPort = await freePort();
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
  const made = await createTestDatabaseConfig({
    realtime: {
      redisUrl: `redis://127.0.0.1:${redisPort}`,
      retentionHours: 24,
      heartbeatMs: 60_000,
      pollMs: 100,
    },
  });
  cleanup = made.cleanup;
  const app = await buildApp(made.config);
  await app.ready();
  t = testAppOf(app, made.config);
  other = await buildApp(made.config);
  await other.ready();
  baseA = await app.listen({ port: 0, host: '127.0.0.1' });
  baseB = await other.listen({ port: 0, host: '127.0.0.1' });

  ana = await createSeat(t, 'presence-ana');
  bo = await createSeat(t, 'presence-bo');
  cy = await createSeat(t, 'presence-cy');
  const adminToken = await createAdmin(t, 'presence-owner');
  teamPhone = ana.phones[0]!;
  const account = await t.db
    .selectFrom('phone_accounts')
    .select('id')
    .where('send_phone', '=', teamPhone)
    .executeTakeFirstOrThrow();
  const team = await adminCall(
    t,
    '/v1/admin/teams/set' as AdminCallPath,
    { account_id: account.id, routing: 'manual', capacity: 5, member_ids: [ana.seatId, bo.seatId] },
    adminToken,
  );
  expect(team.code, JSON.stringify(team)).toBe('000000');
}, 60_000);

afterAll(async () => {
  sockets.forEach((s) => s.close());
  await other?.close();
  await t?.close();
  await cleanup?.();
  redisServer?.kill();
});

let inbound = 0;
/** A customer writes to the team number: the chat waits in the queue. Its id and customer. */
async function queuedChat(content: string) {
  const customer = nextPhone('+4479');
  const res = await platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({
      id: `presence-${process.pid}-${++inbound}`,
      account: teamPhone,
      customer,
      type: 'text',
      content,
    }),
  );
  expect(res.code, res.raw).toBe('000000');
  const row = await t.db
    .selectFrom('sessions')
    .select(['id', 'un_read_count'])
    .where('send_phone', '=', teamPhone)
    .where('receiver_phone', '=', customer)
    .executeTakeFirstOrThrow();
  return { sessionId: row.id, customer, unread: row.un_read_count };
}

async function connect(base: string, seat: SeatFixture) {
  const client = await PushClient.open(base, { token: seat.token });
  sockets.push(client);
  await client.waitFor('ready');
  return client;
}

const presenceOf = (client: PushClient): Presence[] =>
  client.frames.flatMap((f) => (f.kind === 'presence' ? [f.data] : []));

function say(seat: SeatFixture, sessionId: number, state: 'viewing' | 'typing' | 'left') {
  return t.call('/v1/seat/team/presence', { session_id: sessionId, state }, seat.token);
}

describe('who is looking at a team chat', () => {
  it('reaches the other members on another instance live, and never a seat outside the team', async () => {
    const { sessionId } = await queuedChat('Is anyone there?');
    // Ana's console on instance A; Bo's on instance B; Cy (no member) on both.
    const anaOnA = await connect(baseA, ana);
    const boOnB = await connect(baseB, bo);
    const cyOnA = await connect(baseA, cy);
    const cyOnB = await connect(baseB, cy);

    expect((await say(ana, sessionId, 'viewing')).code).toBe('000000');
    await boOnB.until(() => presenceOf(boOnB)[0], 'viewing');
    expect(presenceOf(boOnB)[0]).toMatchObject({
      session_id: sessionId,
      seat_id: ana.seatId,
      nickname: 'presence-ana',
      state: 'viewing',
      ttl_ms: 25_000,
    });
    expect((await say(ana, sessionId, 'typing')).code).toBe('000000');
    await boOnB.until(() => presenceOf(boOnB)[1], 'typing');
    expect(presenceOf(boOnB)[1]).toMatchObject({ state: 'typing', ttl_ms: 5_000 });
    expect((await say(ana, sessionId, 'left')).code).toBe('000000');
    await boOnB.until(() => presenceOf(boOnB)[2], 'left');
    expect(presenceOf(boOnB)[2]).toMatchObject({ state: 'left', ttl_ms: 0 });

    // Bo looks too: Ana hears it; her own words never came back to her.
    expect((await say(bo, sessionId, 'viewing')).code).toBe('000000');
    await anaOnA.until(() => presenceOf(anaOnA)[0], "bo's viewing");
    expect(presenceOf(anaOnA).map((p) => [p.seat_id, p.state])).toEqual([[bo.seatId, 'viewing']]);

    // Cy, outside the team, may not speak of the chat (as absent) and heard nothing.
    const refused = await say(cy, sessionId, 'viewing');
    expect(refused.code).toBe('400001');
    // A word of Ana's after Cy's attempt, heard by Bo: everything before it has arrived.
    await say(ana, sessionId, 'viewing');
    await boOnB.until(() => presenceOf(boOnB)[3], 'the last viewing');
    expect(presenceOf(boOnB).map((p) => p.seat_id)).toEqual(Array(4).fill(ana.seatId));
    expect(presenceOf(cyOnA)).toEqual([]);
    expect(presenceOf(cyOnB)).toEqual([]);
    // Ephemeral: nothing in any seat's event log.
    const logged = await t.db.selectFrom('events').select('type').execute();
    expect(logged.filter((e) => e.type.includes('presence'))).toEqual([]);

    // Taken by Ana: the chat is hers alone; Bo may no longer speak of it, and hears nothing.
    expect((await t.call('/v1/seat/team/take', { session_id: sessionId }, ana.token)).code).toBe(
      '000000',
    );
    expect((await say(bo, sessionId, 'viewing')).code).toBe('400001');
    const heard = presenceOf(boOnB).length;
    expect((await say(ana, sessionId, 'typing')).code).toBe('000000');
    const { sessionId: marker } = await queuedChat('marker');
    await say(ana, marker, 'viewing');
    await boOnB.until(() => presenceOf(boOnB)[heard], 'the marker');
    expect(presenceOf(boOnB)[heard]).toMatchObject({ session_id: marker });
  });

  it('refuses bad input with a coded answer', async () => {
    const { sessionId } = await queuedChat('bad input');
    const bad = await t.call(
      '/v1/seat/team/presence',
      { session_id: sessionId, state: 'staring' },
      ana.token,
    );
    expect(bad.code).toBe('100001');
    expect((await say(ana, 999_999, 'viewing')).code).toBe('400001');
    const anon = await t.call('/v1/seat/team/presence', { session_id: sessionId, state: 'left' });
    expect(anon.code).not.toBe('000000');
  });
});

describe('a queued chat read before taking it', () => {
  it("shows the customer's messages to members only, without reading the chat", async () => {
    const { sessionId, unread } = await queuedChat('My order #77 never came');
    const read = await t.call('/v1/seat/team/chatRecord', { session_id: sessionId }, bo.token);
    expect(read.code, read.raw).toBe('000000');
    expect(read.data.list.map((m) => [m.direction, m.content])).toEqual([
      ['in', 'My order #77 never came'],
    ]);
    expect(read.data.has_more).toBe(false);
    // Still unread, for whoever takes it.
    const row = await t.db
      .selectFrom('sessions')
      .select('un_read_count')
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(row.un_read_count).toBe(unread);
    // Cy is no member: as a chat that does not exist.
    const peek = await t.call('/v1/seat/team/chatRecord', { session_id: sessionId }, cy.token);
    expect(peek.code).toBe('400001');
    expect(peek.data).toBeNull();
    // Taken by Ana: Bo no longer reads it.
    await t.call('/v1/seat/team/take', { session_id: sessionId }, ana.token);
    expect(
      (await t.call('/v1/seat/team/chatRecord', { session_id: sessionId }, bo.token)).code,
    ).toBe('400001');
    expect(
      (await t.call('/v1/seat/team/chatRecord', { session_id: sessionId }, ana.token)).code,
    ).toBe('000000');
  });
});

describe('a reply soon after another member’s', () => {
  let n = 0;
  function reply(seat: SeatFixture, customer: string, extra: Record<string, unknown> = {}) {
    return t.call(
      '/v1/seat/chat/message',
      {
        send_phone: teamPhone,
        receiver_phone: customer,
        content: `reply ${++n}`,
        client_msg_id: `presence-reply-${process.pid}-${n}`,
        ...extra,
      },
      seat.token,
    );
  }
  async function handOver(from: SeatFixture, to: SeatFixture, sessionId: number) {
    const res = await t.call(
      '/v1/seat/team/handOver',
      { session_id: sessionId, to_seat_id: to.seatId },
      from.token,
    );
    expect(res.code, res.raw).toBe('000000');
  }
  const outgoing = async (sessionId: number) =>
    (
      await t.db
        .selectFrom('messages')
        .select('content')
        .where('session_id', '=', sessionId)
        .where('direction', '=', 'out')
        .orderBy('id')
        .execute()
    ).map((m) => m.content);

  it('asks first (409005, who and when) and sends once confirmed', async () => {
    const { sessionId, customer } = await queuedChat('Hello?');
    await t.call('/v1/seat/team/take', { session_id: sessionId }, ana.token);
    const first = await reply(ana, customer);
    expect(first.code, first.raw).toBe('000000');
    await handOver(ana, bo, sessionId);

    const refused = await reply(bo, customer);
    expect(refused.code).toBe('409005');
    expect(refused.data).toEqual({
      seat_id: ana.seatId,
      nickname: 'presence-ana',
      at: first.data.created_at,
    });
    expect(await outgoing(sessionId)).toEqual([first.data.content]);

    const confirmed = await reply(bo, customer, { confirmed: true });
    expect(confirmed.code, confirmed.raw).toBe('000000');
    // Bo's own reply last: Bo's next one is not asked about.
    const again = await reply(bo, customer);
    expect(again.code, again.raw).toBe('000000');
    expect(await outgoing(sessionId)).toEqual([
      first.data.content,
      confirmed.data.content,
      again.data.content,
    ]);

    // Back to Ana right away: she is asked about Bo's reply.
    await handOver(bo, ana, sessionId);
    const back = await reply(ana, customer);
    expect(back.code).toBe('409005');
    expect(back.data).toMatchObject({ seat_id: bo.seatId, nickname: 'presence-bo' });

    // Over 10 s after Bo's reply: no question.
    await t.db
      .updateTable('team_replies')
      .set({ at: Date.now() - 10_001 })
      .where('send_phone', '=', teamPhone)
      .where('receiver_phone', '=', customer)
      .execute();
    const later = await reply(ana, customer);
    expect(later.code, later.raw).toBe('000000');
  });

  it('leaves accounts that are not team accounts as they were', async () => {
    const customer = nextPhone('+4479');
    const added = await t.call(
      '/v1/seat/chat/addSession',
      {
        send_phone: cy.phones[0]!,
        receiver_phone: customer,
        greeting: 'first words',
        client_msg_id: `presence-greet-${process.pid}`,
      },
      cy.token,
    );
    expect(added.code, added.raw).toBe('000000');
    for (let i = 0; i < 2; i++) {
      const res = await t.call(
        '/v1/seat/chat/message',
        {
          send_phone: cy.phones[0]!,
          receiver_phone: customer,
          content: `solo ${i}`,
          client_msg_id: `presence-solo-${process.pid}-${i}`,
        },
        cy.token,
      );
      expect(res.code, res.raw).toBe('000000');
    }
    const rows = await t.db
      .selectFrom('team_replies')
      .selectAll()
      .where('send_phone', '=', cy.phones[0]!)
      .execute();
    expect(rows).toEqual([]);
  });
});
