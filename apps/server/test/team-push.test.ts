import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS, type AdminCallPath, type PushPayload } from '@parley/protocol';
import { adminCall, createAdmin } from './admin-helpers.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { LocalPushService, PushDevice } from './local-push-service.js';
import { platformPost } from './platform-helpers.js';

/**
 * A chat handed to a member is notified on that member's devices (issue 37: "the same holds for
 * a chat handed to them"): the customer's name, the hand-over note (else the customer's latest
 * message) and the chat's link, decrypted here from what the local push service of RFC 8030
 * received. Never to the member who handed it, never for a chat the receiver muted.
 */
const METRICS_TOKEN = 'team-push-metrics-token';
let t: TestApp;
let push: LocalPushService;
let ana: SeatFixture;
let bo: SeatFixture;
let adminToken: string;
let teamPhone: string;
let anaDevice: PushDevice;
let boDevice: PushDevice;

function asOwner<P extends AdminCallPath>(path: P, body: Record<string, unknown>) {
  return adminCall(t, path, body, adminToken);
}

/** The team number as a team account of ana and bo, with this routing. */
async function makeTeam(routing: 'manual' | 'automatic', capacity: number) {
  const account = await t.db
    .selectFrom('phone_accounts')
    .select('id')
    .where('send_phone', '=', teamPhone)
    .executeTakeFirstOrThrow();
  const team = await asOwner('/v1/admin/teams/set', {
    account_id: account.id,
    routing,
    capacity,
    member_ids: [ana.seatId, bo.seatId],
  });
  expect(team.code, JSON.stringify(team)).toBe('000000');
}

beforeAll(async () => {
  push = await new LocalPushService().start();
  t = await createTestApp({
    push: { hosts: ['localhost'], privateHosts: ['localhost'], caFile: push.caFile },
    ops: { metricsToken: METRICS_TOKEN, shutdownTimeoutMs: 10_000, shutdownGraceMs: 0 },
  });
  ana = await createSeat(t, 'handpush-ana');
  bo = await createSeat(t, 'handpush-bo');
  adminToken = await createAdmin(t, 'handpush-owner');
  teamPhone = ana.phones[0]!;
  await makeTeam('manual', 5);
  anaDevice = new PushDevice(`${push.origin}/sub/handpush-ana-${process.pid}`);
  boDevice = new PushDevice(`${push.origin}/sub/handpush-bo-${process.pid}`);
  for (const [device, seat] of [
    [anaDevice, ana],
    [boDevice, bo],
  ] as const) {
    const res = await t.call('/v1/seat/push/subscribe', device.subscription(), seat.token);
    expect(res.code, res.raw).toBe('000000');
  }
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});

/** What this device's push service received since `from`, decrypted. */
function received(device: PushDevice, from: number): PushPayload[] {
  const path = new URL(device.endpoint).pathname;
  return push.delivered
    .slice(from)
    .filter((d) => d.path === path)
    .map((d) => JSON.parse(device.decrypt(d.body)) as PushPayload);
}

let inbound = 0;
/** A new customer, Wei Zhang, writes to the team number: the chat as it now is. */
async function customerWrites(content: string) {
  const customer = nextPhone('+4478');
  const res = await platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({
      id: `handpush-${process.pid}-${++inbound}`,
      account: teamPhone,
      customer,
      name: 'Wei Zhang',
      type: 'text',
      content,
    }),
  );
  expect(res.code).toBe('000000');
  return t.db
    .selectFrom('sessions')
    .select(['id', 'seat_id'])
    .where('send_phone', '=', teamPhone)
    .where('receiver_phone', '=', customer)
    .executeTakeFirstOrThrow();
}

/** A customer writes to the team number; ana takes the chat. Its id. */
async function chatHeldByAna(content: string): Promise<number> {
  const row = await customerWrites(content);
  const taken = await t.call('/v1/seat/team/take', { session_id: row.id }, ana.token);
  expect(taken.code, taken.raw).toBe('000000');
  await t.services.push.idle();
  return row.id;
}

async function handOver(from: SeatFixture, to: SeatFixture, sessionId: number, note?: string) {
  const res = await t.call(
    '/v1/seat/team/handOver',
    { session_id: sessionId, to_seat_id: to.seatId, ...(note ? { note } : {}) },
    from.token,
  );
  expect(res.code, res.raw).toBe('000000');
  await t.services.push.idle();
}

describe('a chat handed over is notified', () => {
  it('to the receiver once, with the note and the chat link; never to the member who handed it', async () => {
    const sessionId = await chatHeldByAna('Where is my parcel?');
    const at = push.delivered.length;
    await handOver(ana, bo, sessionId, 'Wants a refund today');
    expect(received(boDevice, at)).toEqual([
      {
        title: 'Wei Zhang',
        body: 'Wants a refund today',
        url: `/home/chat?chat=${sessionId}`,
        tag: `chat-${sessionId}`,
        session_id: sessionId,
      },
    ]);
    expect(received(anaDevice, at)).toEqual([]);

    // Handed back without a note: the customer's latest message, as its notification showed it.
    const back = push.delivered.length;
    await handOver(bo, ana, sessionId);
    expect(received(anaDevice, back).map((p) => [p.title, p.body, p.url])).toEqual([
      ['Wei Zhang', 'Where is my parcel?', `/home/chat?chat=${sessionId}`],
    ]);
    expect(received(boDevice, back)).toEqual([]);
  });

  it('not for a chat the receiver muted', async () => {
    const sessionId = await chatHeldByAna('Mute me later');
    const before = push.delivered.length;
    await handOver(ana, bo, sessionId, 'first');
    expect(received(boDevice, before).map((p) => p.body)).toEqual(['first']);
    const muted = await t.call(
      '/v1/seat/chat/mute',
      { session_id: sessionId, muted: true },
      bo.token,
    );
    expect(muted.code, muted.raw).toBe('000000');
    await handOver(bo, ana, sessionId);
    const at = push.delivered.length;
    await handOver(ana, bo, sessionId, 'second, muted');
    expect(received(boDevice, at)).toEqual([]);
    expect(received(anaDevice, at)).toEqual([]);
  });

  it('when routing assigns a new chat: to the member it picked, with the customer’s message', async () => {
    await makeTeam('automatic', 1000);
    // Both online, as their consoles' heartbeats keep them.
    await t.db
      .updateTable('seats')
      .set({ last_seen_at: Date.now() })
      .where('id', 'in', [ana.seatId, bo.seatId])
      .execute();
    const at = push.delivered.length;
    const row = await customerWrites('Route me, please');
    await t.services.push.idle();
    const [picked, other] =
      row.seat_id === ana.seatId ? [anaDevice, boDevice] : [boDevice, anaDevice];
    expect([ana.seatId, bo.seatId]).toContain(row.seat_id);
    expect(received(picked, at).map((p) => [p.title, p.body, p.url])).toEqual([
      ['Wei Zhang', 'Route me, please', `/home/chat?chat=${row.id}`],
    ]);
    expect(received(other, at)).toEqual([]);
    // The routing step's server time is in /metrics: this chat routed, the two earlier ones queued.
    const metrics = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const count = (result: string) =>
      Number(
        new RegExp(`^parley_team_routing_seconds_count\\{result="${result}"\\} (\\d+)$`, 'm').exec(
          metrics.body,
        )?.[1] ?? 0,
      );
    expect(count('routed')).toBe(1);
    expect(count('queued')).toBe(2);
  });
});
