import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_MESSAGES,
  type AdminCallPath,
  type EventPayload,
  type EventType,
} from '@parley/protocol';
import { adminCall, createAdmin } from './admin-helpers.js';
import { PASSWORD, createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { pickMember } from '../src/modules/teams/teams.service.js';

/**
 * Team accounts (issue 35; docs/decisions/2026-11-29-team-accounts.md): the owner makes a phone
 * account a team account; its chats wait in a queue or are held by one member; the isolation
 * rule; take, hand-over, back to queue, notes, routing, member removal. Real server, real
 * database (SQLite, and PostgreSQL with PARLEY_TEST_DATABASE_URL).
 */
let t: TestApp;
let ana: SeatFixture;
let bo: SeatFixture;
let cy: SeatFixture;
/** A seat of no team. */
let outsider: SeatFixture;
let adminToken: string;
let teamPhone: string;
let teamAccountId: number;

/** An admin call (its answer checked against the protocol by adminCall). */
function asOwner<P extends AdminCallPath>(path: P, body: Record<string, unknown>) {
  return adminCall(t, path, body, adminToken);
}

/** A customer writes to the team number: the chat's id. */
async function customerWrites(text = 'hello team', receiver = nextPhone('+4478')) {
  const r = await t.services.messages.receive({
    sendPhone: teamPhone,
    receiverPhone: receiver,
    content: text,
  });
  if ('blocked' in r) throw new Error('blocked');
  return { sessionId: r.sessionId, receiver, seatId: r.seatId };
}

/** getChatRecord of the chat, as a seat's console asks it (by the chat's two numbers). */
async function recordOf(sessionId: number, seat: SeatFixture) {
  const row = await t.db
    .selectFrom('sessions')
    .select(['send_phone', 'receiver_phone'])
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return t.call(
    '/v1/seat/chat/getChatRecord',
    { send_phone: row.send_phone, receiver_phone: row.receiver_phone },
    seat.token,
  );
}

async function holderOf(sessionId: number) {
  const row = await t.db
    .selectFrom('sessions')
    .select('seat_id')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return row.seat_id;
}

async function eventsOf<T extends EventType>(seatId: number, type: T) {
  const rows = await t.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('seat_id', '=', seatId)
    .where('type', '=', type)
    .orderBy('seq')
    .execute();
  return rows.map((r) => JSON.parse(r.data) as EventPayload<T>);
}

async function setTeam(members: SeatFixture[], routing = 'manual', capacity = 5) {
  const res = await asOwner('/v1/admin/teams/set', {
    account_id: teamAccountId,
    routing,
    capacity,
    member_ids: members.map((m) => m.seatId),
  });
  expect(res.code, JSON.stringify(res)).toBe('000000');
  return res.data;
}

beforeAll(async () => {
  t = await createTestApp();
  ana = await createSeat(t, 'team-ana');
  bo = await createSeat(t, 'team-bo');
  cy = await createSeat(t, 'team-cy');
  outsider = await createSeat(t, 'team-out');
  adminToken = await createAdmin(t, 'team-owner');
  // The number ana held alone until the owner makes it a team account.
  teamPhone = ana.phones[0]!;
  const account = await t.db
    .selectFrom('phone_accounts')
    .select('id')
    .where('send_phone', '=', teamPhone)
    .executeTakeFirstOrThrow();
  teamAccountId = account.id;
});
afterAll(async () => t?.close());

describe('team accounts', () => {
  it('an account not made a team account keeps its behaviour: its chats are its seat’s', async () => {
    const { sessionId, seatId } = await customerWrites('before the team');
    expect(seatId).toBe(ana.seatId);
    expect(await holderOf(sessionId)).toBe(ana.seatId);
    // No team: the team calls see nothing of it.
    expect((await t.call('/v1/seat/team/queue', {}, ana.token)).data).toEqual({ teams: [] });
    expect((await t.call('/v1/seat/team/notes', { session_id: sessionId }, ana.token)).code).toBe(
      '400001',
    );
  });

  it('the owner makes it a team account: audited, the seat’s chats stay with it (a member)', async () => {
    const team = await setTeam([ana, bo]);
    expect(team.team.members.map((m: { seat_id: number }) => m.seat_id)).toEqual([
      ana.seatId,
      bo.seatId,
    ]);
    expect(team.queued_chats).toBe(0);
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'account.set_team')
      .execute();
    expect(audit).toHaveLength(1);
    // The queue seat is not one of the owner's seats.
    const seats = await asOwner('/v1/admin/seats/list', { status: 'all' });
    expect(seats.data.list.map((s: { account: string }) => s.account)).not.toContain(
      `team queue ${teamAccountId}`,
    );
    // A member who is not a seat: 200001, nothing changed.
    const bad = await asOwner('/v1/admin/teams/set', {
      account_id: teamAccountId,
      routing: 'manual',
      capacity: 5,
      member_ids: [ana.seatId, 999_999],
    });
    expect(bad.code).toBe('200001');
    const list = await asOwner('/v1/admin/teams/list', {});
    expect(list.data.teams[0]!.members).toHaveLength(2);
  });

  it('a new customer waits in the queue of every member, and no one else’s', async () => {
    const { sessionId } = await customerWrites('queued one');
    const [q] = (await t.call('/v1/seat/team/queue', {}, bo.token)).data.teams;
    expect(q).toMatchObject({
      account_id: teamAccountId,
      send_phone: teamPhone,
      routing: 'manual',
    });
    expect(q!.chats.map((c) => c.session_id)).toContain(sessionId);
    expect(q!.count).toBeGreaterThanOrEqual(1);
    expect(q!.oldest_since).not.toBeNull();
    expect((await t.call('/v1/seat/team/queue', {}, outsider.token)).data.teams).toEqual([]);
    // A page of one: the count and the oldest wait are the whole queue's.
    const { sessionId: second } = await customerWrites('queued two');
    const [page] = (await t.call('/v1/seat/team/queue', { page_size: 1 }, bo.token)).data.teams;
    expect(page!.chats).toHaveLength(1);
    expect(page!.count).toBe(q!.count + 1);
    expect(page!.oldest_since).toBe(q!.oldest_since);
    expect(page!.chats[0]!.session_id).not.toBe(second);
    // Each member was told.
    const told = await eventsOf(bo.seatId, 'team.queue');
    expect(told.at(-1)!.chats.map((c: { session_id: number }) => c.session_id)).toContain(
      sessionId,
    );
    // Not in anyone's chat list: the queue is no member's.
    for (const seat of [ana, bo]) {
      const info = await recordOf(sessionId, seat);
      expect(info.code).toBe('400001');
    }
  });

  it('take: the chat moves to the taker, leaves the queue, every member is told', async () => {
    const { sessionId } = await customerWrites('take me');
    const taken = await t.call('/v1/seat/team/take', { session_id: sessionId }, bo.token);
    expect(taken.code).toBe('000000');
    expect(taken.data).toMatchObject({ session_id: sessionId, group_id: bo.groups.ungrouped });
    expect(await holderOf(sessionId)).toBe(bo.seatId);
    const record = await recordOf(sessionId, bo);
    expect(record.code).toBe('000000');
    const [q] = (await t.call('/v1/seat/team/queue', {}, ana.token)).data.teams;
    expect(q!.chats.map((c) => c.session_id)).not.toContain(sessionId);
    expect(
      (await eventsOf(bo.seatId, 'session.created')).map((e) => e.session.session_id),
    ).toContain(sessionId);
    const anaQueue = (await eventsOf(ana.seatId, 'team.queue')).at(-1);
    expect(anaQueue!.chats.map((c: { session_id: number }) => c.session_id)).not.toContain(
      sessionId,
    );
    // A taker's reply goes out from the team number.
    const sent = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: teamPhone,
        receiver_phone: (
          await t.db
            .selectFrom('sessions')
            .select('receiver_phone')
            .where('id', '=', sessionId)
            .executeTakeFirstOrThrow()
        ).receiver_phone,
        type: 'text',
        content: 'Hi, Bo here',
        client_msg_id: `bo-reply-${sessionId}`,
      },
      bo.token,
    );
    expect(sent.code, sent.raw).toBe('000000');
    // The customer's next message reaches the holder, not the queue.
    const receiver = (
      await t.db
        .selectFrom('sessions')
        .select('receiver_phone')
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow()
    ).receiver_phone;
    const again = await customerWrites('thanks', receiver);
    expect(again).toMatchObject({ sessionId, seatId: bo.seatId });
  });

  it('50 takes of one queued chat at once: exactly one wins, the others are told 409002', async () => {
    const { sessionId } = await customerWrites('race');
    const seats = [ana, bo];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.call('/v1/seat/team/take', { session_id: sessionId }, seats[i % 2]!.token),
      ),
    );
    const holder = await holderOf(sessionId);
    expect([ana.seatId, bo.seatId]).toContain(holder);
    const winnerToken = holder === ana.seatId ? ana.token : bo.token;
    const won = answers.filter(
      (a, i) => a.code === '000000' && seats[i % 2]!.token !== winnerToken,
    );
    expect(won).toHaveLength(0);
    const lost = answers.filter((a) => a.code !== '000000');
    expect(lost.length).toBeGreaterThanOrEqual(25);
    for (const a of lost) {
      expect(a.code).toBe('409002');
      expect(a.msg).toBe(ERROR_MESSAGES['409002']);
    }
    // One move only: one session.created of it to the winner.
    const created = (await eventsOf(holder, 'session.created')).filter(
      (e) => e.session.session_id === sessionId,
    );
    expect(created).toHaveLength(1);
  });

  it('hand-over with a note: the member is told at once and reads the note; never a message', async () => {
    const { sessionId } = await customerWrites('hand me over');
    await t.call('/v1/seat/team/take', { session_id: sessionId }, ana.token);
    const messagesBefore = await t.db
      .selectFrom('messages')
      .select('id')
      .where('session_id', '=', sessionId)
      .execute();
    const res = await t.call(
      '/v1/seat/team/handOver',
      { session_id: sessionId, to_seat_id: bo.seatId, note: 'Wants a refund <b>now</b>' },
      ana.token,
    );
    expect(res.code, res.raw).toBe('000000');
    expect(res.data.holder).toMatchObject({ seat_id: bo.seatId, nickname: 'team-bo' });
    expect(await holderOf(sessionId)).toBe(bo.seatId);
    const assigned = (await eventsOf(bo.seatId, 'team.assigned')).at(-1);
    expect(assigned).toMatchObject({
      session_id: sessionId,
      from: { seat_id: ana.seatId },
      note: { kind: 'handover', content: 'Wants a refund <b>now</b>' },
    });
    const notes = await t.call('/v1/seat/team/notes', { session_id: sessionId }, bo.token);
    expect(notes.data.notes.map((n) => n.content)).toEqual(['Wants a refund <b>now</b>']);
    // The note is no message and no outbox row: nothing reaches the customer.
    const messagesAfter = await t.db
      .selectFrom('messages')
      .select('id')
      .where('session_id', '=', sessionId)
      .execute();
    expect(messagesAfter).toHaveLength(messagesBefore.length);
    const outbox = await t.db
      .selectFrom('outbox')
      .innerJoin('messages', 'messages.id', 'outbox.msg_id')
      .select('outbox.id')
      .where('messages.session_id', '=', sessionId)
      .execute();
    expect(outbox).toHaveLength(0);
    // Ana no longer reaches it: the same answer as a chat that does not exist.
    expect((await t.call('/v1/seat/team/notes', { session_id: sessionId }, ana.token)).code).toBe(
      '400001',
    );
    // Searchable by the holder and by the owner, not by an outsider.
    const found = await t.call('/v1/seat/team/searchNotes', { keyword: 'REFUND' }, bo.token);
    expect(found.data.notes.map((n) => n.session_id)).toContain(sessionId);
    const none = await t.call('/v1/seat/team/searchNotes', { keyword: 'refund' }, outsider.token);
    expect(none.data.notes).toEqual([]);
    const owner = await asOwner('/v1/admin/teams/notes', {
      account_id: teamAccountId,
      keyword: 'refund',
    });
    expect(owner.data.notes.map((n: { session_id: number }) => n.session_id)).toContain(sessionId);
  });

  it('hand-over to a non-member or a frozen member: coded error, nothing changed', async () => {
    const { sessionId } = await customerWrites('stay with me');
    await t.call('/v1/seat/team/take', { session_id: sessionId }, ana.token);
    const notMember = await t.call(
      '/v1/seat/team/handOver',
      { session_id: sessionId, to_seat_id: outsider.seatId, note: 'x' },
      ana.token,
    );
    expect(notMember.code).toBe('409003');
    expect(notMember.msg).toBe(ERROR_MESSAGES['409003']);
    await setTeam([ana, bo, cy]);
    await t.services.seats.setFrozen('team-cy', true);
    const frozen = await t.call(
      '/v1/seat/team/handOver',
      { session_id: sessionId, to_seat_id: cy.seatId, note: 'x' },
      ana.token,
    );
    expect(frozen.code).toBe('409004');
    expect(await holderOf(sessionId)).toBe(ana.seatId);
    const notes = await t.db
      .selectFrom('team_notes')
      .select('id')
      .where('session_id', '=', sessionId)
      .execute();
    expect(notes).toHaveLength(0);
    await t.services.seats.setFrozen('team-cy', false);
    // Freezing ended cy's logins: it signs in again.
    const login = await t.call('/v1/seat/chat/login', { account: 'team-cy', password: PASSWORD });
    cy = { ...cy, token: login.data.token };
  });

  it('the isolation rule for every team call: another member’s chat, another team’s, a missing one', async () => {
    const { sessionId } = await customerWrites('held by ana');
    await t.call('/v1/seat/team/take', { session_id: sessionId }, ana.token);
    const queued = (await customerWrites('queued for isolation')).sessionId;
    const calls = (id: number) =>
      [
        ['/v1/seat/team/handOver', { session_id: id, to_seat_id: bo.seatId }],
        ['/v1/seat/team/backToQueue', { session_id: id }],
        ['/v1/seat/team/members', { session_id: id }],
        ['/v1/seat/team/addNote', { session_id: id, content: 'peek' }],
        ['/v1/seat/team/notes', { session_id: id }],
      ] as const;
    const missing = 2_000_000_000;
    for (const [path, body] of calls(missing)) {
      const none = await t.call(path, body as never, bo.token);
      expect(none.code).toBe('400001');
      // Held by another member (ana): the same answer.
      const held = await t.call(path, { ...body, session_id: sessionId } as never, bo.token);
      expect({ path, code: held.code, msg: held.msg }).toEqual({
        path,
        code: none.code,
        msg: none.msg,
      });
      // A seat of no team, on a queued chat and a held one: the same answer.
      for (const id of [queued, sessionId]) {
        const out = await t.call(path, { ...body, session_id: id } as never, outsider.token);
        expect({ path, code: out.code }).toEqual({ path, code: '400001' });
      }
    }
    // Take: a missing chat or another team's is 400001; the outsider cannot take the queue's.
    expect((await t.call('/v1/seat/team/take', { session_id: missing }, bo.token)).code).toBe(
      '400001',
    );
    expect((await t.call('/v1/seat/team/take', { session_id: queued }, outsider.token)).code).toBe(
      '400001',
    );
    expect(await holderOf(sessionId)).toBe(ana.seatId);
    expect(
      (await t.db.selectFrom('team_notes').select('id').where('content', '=', 'peek').execute())
        .length,
    ).toBe(0);
  });

  it('back to queue with a note: the chat waits again, the note stays with it', async () => {
    const { sessionId } = await customerWrites('going back');
    await t.call('/v1/seat/team/take', { session_id: sessionId }, bo.token);
    const res = await t.call(
      '/v1/seat/team/backToQueue',
      { session_id: sessionId, note: 'End of shift' },
      bo.token,
    );
    expect(res.code).toBe('000000');
    const [q] = (await t.call('/v1/seat/team/queue', {}, ana.token)).data.teams;
    expect(q!.chats.map((c) => c.session_id)).toContain(sessionId);
    const notes = await t.call('/v1/seat/team/notes', { session_id: sessionId }, ana.token);
    expect(notes.data.notes[0]).toMatchObject({ kind: 'handover', content: 'End of shift' });
    expect((await eventsOf(bo.seatId, 'session.deleted')).map((e) => e.session_id)).toContain(
      sessionId,
    );
  });

  it('removing a member who holds chats returns them to the queue; nothing is lost', async () => {
    const { sessionId } = await customerWrites('cy holds this');
    await t.call('/v1/seat/team/take', { session_id: sessionId }, cy.token);
    const count = async () =>
      (await t.db.selectFrom('messages').select('id').where('session_id', '=', sessionId).execute())
        .length;
    const before = await count();
    const res = await setTeam([ana, bo]);
    expect(res.queued_chats).toBeGreaterThanOrEqual(1);
    const [q] = (await t.call('/v1/seat/team/queue', {}, ana.token)).data.teams;
    expect(q!.chats.map((c) => c.session_id)).toContain(sessionId);
    expect(await count()).toBe(before);
    expect((await t.call('/v1/seat/team/queue', {}, cy.token)).data.teams).toEqual([]);
    expect((await recordOf(sessionId, cy)).code).toBe('400001');
  });

  it('automatic routing: a new chat goes to the online member with fewest open chats; full: queue', async () => {
    await setTeam([ana, bo], 'automatic', 1000);
    // Both online, as their consoles' heartbeats keep them (the test's heartbeat is short).
    const seen = () =>
      t.db
        .updateTable('seats')
        .set({ last_seen_at: Date.now() })
        .where('id', 'in', [ana.seatId, bo.seatId])
        .execute();
    await seen();
    const open = async (seatId: number) =>
      (
        await t.db
          .selectFrom('sessions')
          .select('id')
          .where('seat_id', '=', seatId)
          .where('send_phone', '=', teamPhone)
          .where('latest_time', '>=', Date.now() - 24 * 3600_000)
          .execute()
      ).length;
    const fewer = (await open(ana.seatId)) <= (await open(bo.seatId)) ? ana : bo;
    const { sessionId } = await customerWrites('route me');
    expect(await holderOf(sessionId)).toBe(fewer.seatId);
    expect((await eventsOf(fewer.seatId, 'team.assigned')).at(-1)).toMatchObject({
      session_id: sessionId,
      from: null,
    });
    // No one has room: the chat waits.
    await setTeam([ana, bo], 'automatic', 1);
    const queued = await customerWrites('no room');
    const [q] = (await t.call('/v1/seat/team/queue', {}, ana.token)).data.teams;
    expect(q!.chats.map((c) => c.session_id)).toContain(queued.sessionId);
    // An offline member is not routed to.
    await setTeam([ana, bo], 'automatic', 1000);
    await seen();
    await t.db.updateTable('seats').set({ last_seen_at: 0 }).where('id', '=', ana.seatId).execute();
    const toBo = await customerWrites('bo only');
    expect(await holderOf(toBo.sessionId)).toBe(bo.seatId);
    await setTeam([ana, bo], 'manual', 5);
  });

  it('the list-cache rule: a take and a return move the list versions of the seats they touch', async () => {
    const version = async (seatId: number) =>
      Number(
        (
          await t.db
            .selectFrom('seat_list_versions')
            .select('version')
            .where('seat_id', '=', seatId)
            .executeTakeFirst()
        )?.version ?? 0,
      );
    const { sessionId } = await customerWrites('versions');
    const bo0 = await version(bo.seatId);
    await t.call('/v1/seat/team/take', { session_id: sessionId }, bo.token);
    const bo1 = await version(bo.seatId);
    expect(bo1).toBeGreaterThan(bo0);
    await t.call('/v1/seat/team/backToQueue', { session_id: sessionId }, bo.token);
    expect(await version(bo.seatId)).toBeGreaterThan(bo1);
    // The taker's cached list shows the chat after a take, without waiting for anything else.
    const list = async () =>
      (
        await t.call(
          '/v1/seat/chat/getGroupInfo',
          { group_id: bo.groups.ungrouped, user_time_type: 1 },
          bo.token,
        )
      ).data.account_list.map((c) => c.session_id);
    expect(await list()).not.toContain(sessionId);
    await t.call('/v1/seat/team/take', { session_id: sessionId }, bo.token);
    expect(await list()).toContain(sessionId);
  });

  it('a member signs in with the team number among its accounts and starts a chat on it; an outsider cannot', async () => {
    const login = async (seat: SeatFixture) =>
      (
        await t.call('/v1/seat/chat/login', { account: seat.account, password: PASSWORD })
      ).data.phone_accounts.map((p: { send_phone: string }) => p.send_phone);
    expect(await login(bo)).toContain(teamPhone);
    expect(await login(ana)).toContain(teamPhone);
    expect(await login(outsider)).not.toContain(teamPhone);
    // cy left the team: the number is no longer offered to it.
    expect(await login(cy)).not.toContain(teamPhone);

    const customer = nextPhone('+4479');
    const started = await t.call(
      '/v1/seat/chat/addSession',
      {
        send_phone: teamPhone,
        receiver_phone: customer,
        greeting: 'Hello from the team',
        client_msg_id: 'team-start-0001',
      },
      bo.token,
    );
    expect(started.code, JSON.stringify(started)).toBe('000000');
    // bo holds it: in bo's list, not in the queue; the customer's answer reaches bo.
    expect(await holderOf(started.data.session.session_id)).toBe(bo.seatId);
    const answer = await customerWrites('thanks', customer);
    expect(answer.sessionId).toBe(started.data.session.session_id);
    expect(await holderOf(answer.sessionId)).toBe(bo.seatId);
    const refused = await t.call(
      '/v1/seat/chat/addSession',
      {
        send_phone: teamPhone,
        receiver_phone: nextPhone('+4479'),
        greeting: 'hi',
        client_msg_id: 'team-start-0002',
      },
      outsider.token,
    );
    expect(refused.code).toBe('400003');
  });

  it('ties rotate', () => {
    const m = [
      { seatId: 3, open: 1 },
      { seatId: 5, open: 1 },
      { seatId: 9, open: 1 },
    ];
    expect(pickMember(m, 5, null)).toBe(3);
    expect(pickMember(m, 5, 3)).toBe(5);
    expect(pickMember(m, 5, 5)).toBe(9);
    expect(pickMember(m, 5, 9)).toBe(3);
    expect(pickMember(m, 1, null)).toBeNull();
    expect(pickMember([{ seatId: 3, open: 2 }, ...m.slice(1)], 5, null)).toBe(5);
  });
});
