import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_MESSAGES,
  type AdminCallPath,
  type EventPayload,
  type EventType,
} from '@parley/protocol';
import type { AddressInfo } from 'node:net';
import { AdminPushClient, adminCall, createAdmin } from './admin-helpers.js';
import { PASSWORD, createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

/**
 * The owner's side of team accounts (issue 35): the owner's view per team (queue length, oldest
 * wait, open chats per member, the accounts list's count), assignments, hand-overs and time in
 * queue in the charts and the CSV exports, and removing a member who holds chats with a member
 * picked to receive them. Real server, real database (SQLite, and PostgreSQL with
 * PARLEY_TEST_DATABASE_URL).
 */
let t: TestApp;
let ana: SeatFixture;
let bo: SeatFixture;
let cy: SeatFixture;
let outsider: SeatFixture;
let adminToken: string;
let teamPhone: string;
let teamAccountId: number;

const MIN = 60_000;

function asOwner<P extends AdminCallPath>(path: P, body: Record<string, unknown>) {
  return adminCall(t, path, body, adminToken);
}

async function customerWrites(text: string) {
  const r = await t.services.messages.receive({
    sendPhone: teamPhone,
    receiverPhone: nextPhone('+4479'),
    content: text,
  });
  if ('blocked' in r) throw new Error('blocked');
  return r.sessionId;
}

async function holderOf(sessionId: number) {
  const row = await t.db
    .selectFrom('sessions')
    .select('seat_id')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return row.seat_id;
}

async function messagesOf(sessionId: number) {
  const rows = await t.db
    .selectFrom('messages')
    .select(['id', 'seat_id'])
    .where('session_id', '=', sessionId)
    .execute();
  return rows;
}

async function eventsOf<T extends EventType>(seatId: number, type: T) {
  const rows = await t.db
    .selectFrom('events')
    .select('data')
    .where('seat_id', '=', seatId)
    .where('type', '=', type)
    .orderBy('seq')
    .execute();
  return rows.map((r) => JSON.parse(r.data) as EventPayload<T>);
}

async function setTeam(members: SeatFixture[], extra: Record<string, unknown> = {}) {
  return asOwner('/v1/admin/teams/set', {
    account_id: teamAccountId,
    routing: 'manual',
    capacity: 5,
    member_ids: members.map((m) => m.seatId),
    ...extra,
  });
}

async function take(sessionId: number, seat: SeatFixture) {
  const r = await t.call('/v1/seat/team/take', { session_id: sessionId }, seat.token);
  expect(r.code, r.raw).toBe('000000');
}

async function teamView() {
  const res = await asOwner('/v1/admin/teams/list', {});
  return res.data.teams.find((x: { account_id: number }) => x.account_id === teamAccountId)!;
}

/** Today and yesterday in UTC: a day series (buckets by day, whatever the hour now). */
function days() {
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10);
  return { time_zone: 'UTC', from: yesterday, to: today };
}

function parseCsv(text: string): string[][] {
  // The figures' cells hold no quotes or commas.
  return text
    .trim()
    .split('\n')
    .map((l) => l.replace(/\r$/, '').split(','));
}

async function csv(path: string, query: Record<string, string | number>) {
  const res = await t.app.inject({
    method: 'GET',
    url: `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return parseCsv(res.body);
}

beforeAll(async () => {
  t = await createTestApp();
  ana = await createSeat(t, 'own-ana');
  bo = await createSeat(t, 'own-bo');
  cy = await createSeat(t, 'own-cy');
  outsider = await createSeat(t, 'own-out');
  adminToken = await createAdmin(t, 'own-owner');
  teamPhone = ana.phones[0]!;
  teamAccountId = (
    await t.db
      .selectFrom('phone_accounts')
      .select('id')
      .where('send_phone', '=', teamPhone)
      .executeTakeFirstOrThrow()
  ).id;
  const res = await setTeam([ana, bo, cy]);
  expect(res.code, res.raw).toBe('000000');
});
afterAll(async () => t?.close());

describe("the owner's view of a team account", () => {
  it('queue length, oldest wait, open chats per member; the accounts list counts every chat of the number', async () => {
    const first = await customerWrites('one');
    const second = await customerWrites('two');
    const third = await customerWrites('three');
    let view = await teamView();
    expect(view.queue_count).toBe(3);
    const since = await t.db
      .selectFrom('sessions')
      .select('add_time')
      .where('id', '=', first)
      .executeTakeFirstOrThrow();
    expect(view.oldest_since).toBe(Number(since.add_time));
    await take(first, bo);
    await take(second, cy);
    view = await teamView();
    expect(view.queue_count).toBe(1);
    expect(
      Object.fromEntries(
        view.members.map((m: { account: string; open_chats: number }) => [m.account, m.open_chats]),
      ),
    ).toEqual({ 'own-ana': 0, 'own-bo': 1, 'own-cy': 1 });
    // The accounts list: the team number's chats are held by its queue and its members.
    const list = await asOwner('/v1/admin/accounts/list', { keyword: teamPhone });
    const row = list.data.list.find((a: { send_phone: string }) => a.send_phone === teamPhone)!;
    expect(row.chats).toBe(3);
    await take(third, ana);
    const again = await asOwner('/v1/admin/accounts/list', { keyword: teamPhone });
    expect(again.data.list[0]!.chats).toBe(3);
    expect((await teamView()).queue_count).toBe(0);
  });
});

describe("the owner's team view is live", () => {
  it('a new queued chat and a take tell an open admin console to refetch the accounts scope (teams)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const socket = await AdminPushClient.open(base, { token: adminToken });
    try {
      await socket.waitForKind('ready');
      const accountsChanged = () =>
        socket.frames.filter(
          (f) =>
            f.kind === 'event' && f.type === 'admin.changed' && f.data.scopes.includes('accounts'),
        ).length;
      // What the owner's earlier actions left pending is sent first (debounced by a second).
      await socket.overview(() => true);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const before = accountsChanged();
      const id = await customerWrites('live queue');
      await socket.until(
        () => (accountsChanged() > before ? true : undefined),
        'admin.changed with accounts after a queued chat',
      );
      const after = accountsChanged();
      await take(id, bo);
      await socket.until(
        () => (accountsChanged() > after ? true : undefined),
        'admin.changed with accounts after a take',
      );
      // What the refetch reads: the queue without it, bo holding it.
      const view = await teamView();
      expect(
        view.members.find((m: { seat_id: number }) => m.seat_id === bo.seatId)!.open_chats,
      ).toBeGreaterThanOrEqual(1);
    } finally {
      socket.close();
    }
  });
});

describe('assignments, hand-overs and time in queue in the charts and the CSV exports', () => {
  it('each take, hand-over and return to the queue is counted; the time in queue is its mean and p90', async () => {
    // Time-in-queue figures of the day are those of this test only: the earlier takes go.
    await t.db.deleteFrom('team_assignments').where('queued_ms', 'is not', null).execute();
    const before = await t.services.adminStats.seriesOf(
      { timeZone: 'UTC', ...days(), seatId: null },
      Date.now(),
      true,
    );
    const sum = (s: typeof before, k: 'assignments' | 'handovers' | 'back_to_queue') =>
      s.buckets.reduce((n, b) => n + b[k], 0);
    const a = await customerWrites('waited ten minutes');
    const b = await customerWrites('waited twenty minutes');
    // They entered the queue 10 and 20 minutes ago.
    const now = Date.now();
    await t.db
      .updateTable('team_queue')
      .set({ since: now - 10 * MIN })
      .where('session_id', '=', a)
      .execute();
    await t.db
      .updateTable('team_queue')
      .set({ since: now - 20 * MIN })
      .where('session_id', '=', b)
      .execute();
    await take(a, bo);
    await take(b, bo);
    const handed = await t.call(
      '/v1/seat/team/handOver',
      { session_id: a, to_seat_id: cy.seatId, note: 'yours' },
      bo.token,
    );
    expect(handed.code, handed.raw).toBe('000000');
    const back = await t.call('/v1/seat/team/backToQueue', { session_id: b }, bo.token);
    expect(back.code, back.raw).toBe('000000');

    const series = await asOwner('/v1/admin/stats/series', days());
    expect(series.code, series.raw).toBe('000000');
    const s = series.data;
    const today = s.buckets[s.buckets.length - 1]!;
    expect(today.queue_wait_avg_ms).toBeGreaterThanOrEqual(15 * MIN);
    expect(today.queue_wait_avg_ms).toBeLessThan(15 * MIN + 30_000);
    expect(today.queue_wait_p90_ms).toBeGreaterThanOrEqual(20 * MIN);
    expect(today.queue_wait_p90_ms).toBeLessThan(20 * MIN + 30_000);
    expect(sum(s, 'assignments') - sum(before, 'assignments')).toBe(3);
    expect(sum(s, 'handovers') - sum(before, 'handovers')).toBe(1);
    expect(sum(s, 'back_to_queue') - sum(before, 'back_to_queue')).toBe(1);

    // A seat's series counts what it received (cy: the hand-over) or gave back (bo).
    const ofCy = (await asOwner('/v1/admin/stats/series', { ...days(), seat_id: cy.seatId })).data;
    const cyToday = ofCy.buckets[ofCy.buckets.length - 1]!;
    expect(cyToday.handovers).toBe(1);
    expect(cyToday.queue_wait_avg_ms).toBeNull();
    const ofBo = (await asOwner('/v1/admin/stats/series', { ...days(), seat_id: bo.seatId })).data;
    const boToday = ofBo.buckets[ofBo.buckets.length - 1]!;
    expect(boToday.back_to_queue).toBe(1);
    expect(boToday.handovers).toBe(0);
    expect(boToday.queue_wait_p90_ms).toBeGreaterThanOrEqual(20 * MIN);
    const ofOutsider = (
      await asOwner('/v1/admin/stats/series', { ...days(), seat_id: outsider.seatId })
    ).data;
    expect(ofOutsider.buckets.every((x: { assignments: number }) => x.assignments === 0)).toBe(
      true,
    );

    // The series export: the same figures, in columns of their own.
    const [head, ...rows] = await csv('/v1/admin/export/series.csv', days());
    expect(head!.slice(-5)).toEqual([
      'assignments',
      'handovers',
      'back_to_queue',
      'queue_wait_avg_ms',
      'queue_wait_p90_ms',
    ]);
    const last = rows[rows.length - 1]!;
    expect(last.slice(-5)).toEqual([
      String(today.assignments),
      String(today.handovers),
      String(today.back_to_queue),
      String(today.queue_wait_avg_ms),
      String(today.queue_wait_p90_ms),
    ]);
    // The per-seat export: each member's own.
    const [seatHead, ...seatRows] = await csv('/v1/admin/export/seat-totals.csv', days());
    expect(seatHead!.slice(-4)).toEqual([
      'assignments',
      'handovers',
      'back_to_queue',
      'queue_wait_avg_ms',
    ]);
    const bySeat = new Map(seatRows.map((r) => [r[1], r.slice(-4)]));
    expect(bySeat.get('own-cy')![1]).toBe('1');
    expect(bySeat.get('own-bo')![2]).toBe('1');
    expect(Number(bySeat.get('own-bo')![3])).toBeGreaterThanOrEqual(15 * MIN);
    expect(bySeat.get('own-out')).toEqual(['0', '0', '0', '']);
    // The exports start a worker thread (SQLite): slow on a loaded machine.
  }, 180_000);

  it('an automatic routing is counted with its time in queue', async () => {
    await setTeam([ana, bo, cy], { routing: 'automatic', capacity: 1000 });
    await t.db
      .updateTable('seats')
      .set({ last_seen_at: Date.now() })
      .where('id', 'in', [ana.seatId, bo.seatId, cy.seatId])
      .execute();
    const id = await customerWrites('route me');
    const holder = await holderOf(id);
    expect([ana.seatId, bo.seatId, cy.seatId]).toContain(holder);
    const fact = await t.db
      .selectFrom('team_assignments')
      .selectAll()
      .where('session_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(fact).toMatchObject({ kind: 'route', seat_id: holder, from_seat_id: null });
    expect(Number(fact.queued_ms)).toBeGreaterThanOrEqual(0);
    await setTeam([ana, bo, cy]);
  });
});

describe('removing a member who holds chats', () => {
  it('a receiver who is not a member, is leaving, is frozen or is no seat: coded error, nothing changed', async () => {
    const held = await customerWrites('cy keeps this');
    await take(held, cy);
    const members = async () =>
      (await teamView()).members.map((m: { seat_id: number }) => m.seat_id);
    const before = await members();
    const facts = async () =>
      (await t.db.selectFrom('team_assignments').select('id').execute()).length;
    const factsBefore = await facts();
    for (const receiver of [outsider.seatId, cy.seatId, 999_999]) {
      const res = await setTeam([ana, bo], { receiver_id: receiver });
      expect(res.code).toBe('409003');
      expect(res.msg).toBe(ERROR_MESSAGES['409003']);
    }
    await t.services.seats.setFrozen('own-bo', true);
    const frozen = await setTeam([ana, bo], { receiver_id: bo.seatId });
    expect(frozen.code).toBe('409004');
    expect(frozen.msg).toBe(ERROR_MESSAGES['409004']);
    await t.services.seats.setFrozen('own-bo', false);
    bo = {
      ...bo,
      token: (await t.call('/v1/seat/chat/login', { account: 'own-bo', password: PASSWORD })).data
        .token,
    };
    expect(await members()).toEqual(before);
    expect(await holderOf(held)).toBe(cy.seatId);
    expect(await facts()).toBe(factsBefore);
    // A seat's token is no owner's: refused, nothing changed.
    const bySeat = await t.call(
      '/v1/admin/teams/set' as never,
      {
        account_id: teamAccountId,
        routing: 'manual',
        capacity: 5,
        member_ids: [ana.seatId, bo.seatId],
        receiver_id: bo.seatId,
      } as never,
      bo.token,
    );
    expect(bySeat.code).not.toBe('000000');
    expect(await holderOf(held)).toBe(cy.seatId);
  });

  it('the owner picks a member who receives them: each moves with its messages, the receiver is told at once', async () => {
    const ids = [await customerWrites('cy one'), await customerWrites('cy two')];
    for (const id of ids) await take(id, cy);
    const held = await t.db
      .selectFrom('sessions')
      .select('id')
      .where('seat_id', '=', cy.seatId)
      .where('send_phone', '=', teamPhone)
      .execute();
    const messages = new Map<number, number>();
    for (const h of held) messages.set(h.id, (await messagesOf(h.id)).length);
    const queueBefore = (await teamView()).queue_count;

    const res = await setTeam([ana, bo], { receiver_id: bo.seatId });
    expect(res.code, res.raw).toBe('000000');
    expect(res.data.handed_chats).toBe(held.length);
    expect(res.data.queued_chats).toBe(0);
    for (const h of held) {
      expect(await holderOf(h.id)).toBe(bo.seatId);
      const rows = await messagesOf(h.id);
      expect(rows).toHaveLength(messages.get(h.id)!);
      expect(rows.every((r) => r.seat_id === bo.seatId)).toBe(true);
    }
    expect((await teamView()).queue_count).toBe(queueBefore);
    // Bo is told of each, from cy; its list has them.
    const told = (await eventsOf(bo.seatId, 'team.assigned')).filter((e) =>
      held.some((h) => h.id === e.session_id),
    );
    expect(told).toHaveLength(held.length);
    expect(told[0]).toMatchObject({ from: { seat_id: cy.seatId }, note: null });
    const record = await t.call('/v1/seat/team/members', { session_id: ids[0]! }, bo.token);
    expect(record.data.holder).toMatchObject({ seat_id: bo.seatId });
    // Cy no longer reaches them.
    expect((await t.call('/v1/seat/team/members', { session_id: ids[0]! }, cy.token)).code).toBe(
      '400001',
    );
    // Counted as hand-overs to bo, and audited with the receiver.
    const facts = await t.db
      .selectFrom('team_assignments')
      .selectAll()
      .where('from_seat_id', '=', cy.seatId)
      .where('kind', '=', 'handover')
      .where('seat_id', '=', bo.seatId)
      .execute();
    expect(facts.length).toBeGreaterThanOrEqual(held.length);
    const audit = await t.db
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'account.set_team')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after!)).toMatchObject({
      receiver_id: bo.seatId,
      handed_chats: held.length,
    });
  });

  it('without a receiver, they return to the queue: nothing lost, counted as returns', async () => {
    await setTeam([ana, bo, cy]);
    const id = await customerWrites('cy again');
    await take(id, cy);
    const before = (await messagesOf(id)).length;
    const res = await setTeam([ana, bo]);
    expect(res.code, res.raw).toBe('000000');
    expect(res.data).toMatchObject({ queued_chats: 1, handed_chats: 0 });
    expect((await teamView()).queue_count).toBeGreaterThanOrEqual(1);
    const [q] = (await t.call('/v1/seat/team/queue', {}, ana.token)).data.teams;
    expect(q!.chats.map((c) => c.session_id)).toContain(id);
    expect(await messagesOf(id)).toHaveLength(before);
    const fact = await t.db
      .selectFrom('team_assignments')
      .selectAll()
      .where('session_id', '=', id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(fact).toMatchObject({ kind: 'queue', seat_id: cy.seatId, from_seat_id: cy.seatId });
  });
});
