import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, createSeat, PASSWORD } from './fixtures.js';
import { buildApp } from '../src/app.js';
import { createTestApp, testAppOf, usingPg, type TestApp } from './helper.js';
import { PushClient } from './ws-client.js';
import { adminCall, createAdmin } from './admin-helpers.js';
import {
  PRESENCE_WRITE_MAX_MS,
  presenceIntervalMs,
  SeatPresence,
} from '../src/modules/seats/seat-presence.js';

let t: TestApp;
let base: string;
let token: string;
const sockets: PushClient[] = [];

beforeAll(async () => {
  t = await createTestApp({
    realtime: { redisUrl: null, retentionHours: 24, heartbeatMs: 600_000, pollMs: 100 },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = await createAdmin(t, 'seat-admin');
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await t?.close();
});

const seatCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('seats')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const auditOf = (action: string, targetId: number) =>
  t.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .execute();

describe('seats/create', () => {
  it('creates a seat that signs in, with its built-in groups, audited with who and after', async () => {
    const res = await adminCall(
      t,
      '/v1/admin/seats/create',
      { account: 'new-op', password: 'new-op-pass1', nickname: 'New Op' },
      token,
    );
    expect(res.code).toBe('000000');
    expect(res.data).toMatchObject({
      account: 'new-op',
      nickname: 'New Op',
      frozen: false,
      online: false,
      open_chats: 0,
      phone_accounts: [],
      last_seen_at: null,
    });
    const login = await t.call('/v1/seat/chat/login', {
      account: 'new-op',
      password: 'new-op-pass1',
    });
    expect(login.code).toBe('000000');
    const groups = await t.call('/v1/seat/chat/getGroupList', {}, login.data.token);
    expect(groups.data.group_list.map((g) => g.group_type).sort()).toEqual([
      'blocked',
      'tg_link_pushed',
      'ungrouped',
    ]);
    const [row] = await auditOf('seat.create', res.data.seat_id);
    expect(row).toMatchObject({
      actor_type: 'admin',
      actor: 'seat-admin',
      target: 'new-op',
      before: null,
    });
    expect(JSON.parse(row!.after!)).toEqual({
      account: 'new-op',
      nickname: 'New Op',
      frozen: false,
    });
    expect(row!.after).not.toContain('new-op-pass1');
  });

  it.each([
    ['a bad account', { account: 'bad account!', password: 'long-enough1' }, '100001', 'account'],
    ['a short password', { account: 'shorty', password: 'short' }, '100001', 'password'],
    [
      'an empty nickname',
      { account: 'blank-nick', password: 'long-enough1', nickname: '   ' },
      '100001',
      'nickname',
    ],
    ['a missing password', { account: 'nopass' }, '100001', 'password'],
  ])('refuses %s with its code and creates nothing', async (_name, body, code, field) => {
    const before = await seatCount();
    const res = await adminCall(t, '/v1/admin/seats/create', body, token);
    expect(res.code).toBe(code);
    expect(res.data).toMatchObject({ fields: [{ path: field }] });
    expect(await seatCount()).toBe(before);
  });

  it('refuses an account already taken with 500002', async () => {
    await createSeat(t, 'taken-op');
    const before = await seatCount();
    const res = await adminCall(
      t,
      '/v1/admin/seats/create',
      { account: 'taken-op', password: 'long-enough1' },
      token,
    );
    expect(res.code).toBe('500002');
    expect(await seatCount()).toBe(before);
  });

  it('two creates of the same account at once: one seat, the other a coded 500002', async () => {
    const body = { account: 'racer', password: 'long-enough1' };
    const answers = await Promise.all(
      [1, 2, 3].map(() => adminCall(t, '/v1/admin/seats/create', body, token)),
    );
    expect(answers.map((a) => a.code).sort()).toEqual(['000000', '500002', '500002']);
    const rows = await t.db
      .selectFrom('seats')
      .select('id')
      .where('account', '=', 'racer')
      .execute();
    expect(rows).toHaveLength(1);
    expect(await auditOf('seat.create', rows[0]!.id)).toHaveLength(1);
  });
});

describe('seats/list', () => {
  it('shows each seat with its phone accounts, chats, unread, waiting chats and the oldest wait', async () => {
    const seat = await createSeat(t, 'busy-op', 2);
    const old = Date.now() - 3_600_000;
    await createChat(t.db, seat, { unread: 2, inbound: 2, latestTime: old });
    await createChat(t.db, seat, { unread: 1, inbound: 1 });
    await createChat(t.db, seat, { groupId: seat.groups.blocked, unread: 0, inbound: 1 });
    const res = await adminCall(t, '/v1/admin/seats/list', { keyword: 'busy' }, token);
    expect(res.data.total).toBe(1);
    const row = res.data.list[0]!;
    expect(row).toMatchObject({
      account: 'busy-op',
      phone_accounts: seat.phones,
      open_chats: 3,
      unread: 3,
      // The blocked chat does not wait.
      waiting_chats: 2,
    });
    // The first of the two unanswered messages of the older chat.
    expect(row.oldest_waiting_since).toBe(old - 2000);
  });

  it('says online while a push socket is open, and when it was last seen', async () => {
    const seat = await createSeat(t, 'online-op');
    const listed = async () =>
      (await adminCall(t, '/v1/admin/seats/list', { keyword: 'online-op' }, token)).data.list[0]!;
    // Last seen an hour ago (after its login's presence write ended): not online.
    await t.services.auth.presence.settled();
    await t.db
      .updateTable('seats')
      .set({ last_seen_at: Date.now() - 3_600_000 })
      .where('id', '=', seat.seatId)
      .execute();
    expect((await listed()).online).toBe(false);
    const socket = await PushClient.open(base, { token: seat.token });
    sockets.push(socket);
    await socket.waitFor('ready');
    expect((await listed()).online).toBe(true);
  });

  it('pages by account with a cursor, and filters frozen seats', async () => {
    for (const a of ['page-a', 'page-b', 'page-c']) await createSeat(t, a);
    const first = await adminCall(
      t,
      '/v1/admin/seats/list',
      { keyword: 'page-', page_size: 2 },
      token,
    );
    expect(first.data.list.map((s) => s.account)).toEqual(['page-a', 'page-b']);
    expect(first.data.total).toBe(3);
    const second = await adminCall(
      t,
      '/v1/admin/seats/list',
      { keyword: 'page-', page_size: 2, cursor: first.data.next_cursor! },
      token,
    );
    expect(second.data.list.map((s) => s.account)).toEqual(['page-c']);
    expect(second.data.next_cursor).toBeNull();
    await t.services.seats.setFrozen('page-b', true);
    const frozen = await adminCall(
      t,
      '/v1/admin/seats/list',
      { keyword: 'page-', status: 'frozen' },
      token,
    );
    expect(frozen.data.list.map((s) => s.account)).toEqual(['page-b']);
    const bad = await adminCall(t, '/v1/admin/seats/list', { cursor: 'not-a-cursor' }, token);
    expect(bad.code).toBe('100001');
    expect((await adminCall(t, '/v1/admin/seats/list', { page_size: 0 }, token)).code).toBe(
      '100001',
    );
  });
});

describe('seats/update and resetPassword', () => {
  it('renames a seat (audited before/after); the console sees the new nickname at its next login', async () => {
    const seat = await createSeat(t, 'rename-op');
    const res = await adminCall(
      t,
      '/v1/admin/seats/update',
      { seat_id: seat.seatId, nickname: 'Renamed' },
      token,
    );
    expect(res.data.nickname).toBe('Renamed');
    const login = await t.call('/v1/seat/chat/login', { account: 'rename-op', password: PASSWORD });
    expect(login.data.nickname).toBe('Renamed');
    const [row] = await auditOf('seat.update', seat.seatId);
    expect(JSON.parse(row!.before!).nickname).toBe('rename-op');
    expect(JSON.parse(row!.after!).nickname).toBe('Renamed');
  });

  it('refuses an unknown seat (200001) and a too long nickname (100001), changing nothing', async () => {
    const seat = await createSeat(t, 'keep-op');
    expect(
      (await adminCall(t, '/v1/admin/seats/update', { seat_id: 999_999, nickname: 'x' }, token))
        .code,
    ).toBe('200001');
    const long = await adminCall(
      t,
      '/v1/admin/seats/update',
      { seat_id: seat.seatId, nickname: 'x'.repeat(65) },
      token,
    );
    expect(long.code).toBe('100001');
    const row = await t.db
      .selectFrom('seats')
      .select('nickname')
      .where('id', '=', seat.seatId)
      .executeTakeFirstOrThrow();
    expect(row.nickname).toBe('keep-op');
    expect(await auditOf('seat.update', seat.seatId)).toHaveLength(0);
  });

  it('resets a password: the old one and the old token stop, the push socket closes with 4001', async () => {
    const seat = await createSeat(t, 'reset-op');
    const socket = await PushClient.open(base, { token: seat.token });
    sockets.push(socket);
    await socket.waitFor('ready');
    const res = await adminCall(
      t,
      '/v1/admin/seats/resetPassword',
      { seat_id: seat.seatId, password: 'brand-new-pass' },
      token,
    );
    expect(res.code).toBe('000000');
    expect(await socket.waitFor('error')).toMatchObject({ code: '400002' });
    expect((await socket.waitForClose()).code).toBe(4001);
    expect((await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).code).toBe('400002');
    expect(
      (await t.call('/v1/seat/chat/login', { account: 'reset-op', password: PASSWORD })).code,
    ).toBe('100005');
    expect(
      (await t.call('/v1/seat/chat/login', { account: 'reset-op', password: 'brand-new-pass' }))
        .code,
    ).toBe('000000');
    const [row] = await auditOf('seat.reset_password', seat.seatId);
    expect(row).toMatchObject({ actor: 'seat-admin', before: null, after: null });
    const short = await adminCall(
      t,
      '/v1/admin/seats/resetPassword',
      { seat_id: seat.seatId, password: 'short' },
      token,
    );
    expect(short.code).toBe('100001');
    expect(
      (await t.call('/v1/seat/chat/login', { account: 'reset-op', password: 'brand-new-pass' }))
        .code,
    ).toBe('000000');
  });
});

describe('presence', () => {
  const listed = async (account: string) =>
    (await adminCall(t, '/v1/admin/seats/list', { keyword: account }, token)).data.list.find(
      (s: { account: string }) => s.account === account,
    ) as { last_seen_at: number | null; online: boolean };

  // A console opens its push socket as it signs in: from then on the owner sees it (online,
  // last seen now), not "never signed in" until the next heartbeat.
  it('its push socket opening moves last_seen_at at once and makes it online (heartbeat 10 min away)', async () => {
    const seat = await createSeat(t, 'seen-by-socket');
    // Its login's presence write has ended (a later one would land over the null below).
    await t.services.auth.presence.settled();
    await t.db
      .updateTable('seats')
      .set({ last_seen_at: null })
      .where('id', '=', seat.seatId)
      .execute();
    expect((await listed('seen-by-socket')).last_seen_at).toBeNull();
    const before = Date.now();
    const socket = await PushClient.open(base, { token: seat.token });
    sockets.push(socket);
    await socket.waitFor('ready');
    await expect
      .poll(async () => (await listed('seen-by-socket')).last_seen_at ?? 0)
      .toBeGreaterThanOrEqual(before);
    expect((await listed('seen-by-socket')).online).toBe(true);
  });
});

describe('presence from any authenticated activity (issue 37)', () => {
  const listed = async (account: string) =>
    (await adminCall(t, '/v1/admin/seats/list', { keyword: account }, token)).data.list.find(
      (s: { account: string }) => s.account === account,
    ) as { last_seen_at: number | null; online: boolean };
  const overviewRow = async (seatId: number) =>
    (await adminCall(t, '/v1/admin/overview', { tz_offset_min: 0 }, token)).data.seats.find(
      (s: { seat_id: number }) => s.seat_id === seatId,
    )!;
  const lastSeen = async (seatId: number) => {
    const row = await t.db
      .selectFrom('seats')
      .select('last_seen_at')
      .where('id', '=', seatId)
      .executeTakeFirstOrThrow();
    return row.last_seen_at === null ? null : Number(row.last_seen_at);
  };
  const setLastSeen = (seatId: number, at: number | null) =>
    t.db.updateTable('seats').set({ last_seen_at: at }).where('id', '=', seatId).execute();
  /** The presence writes this instance started have ended (they are never awaited by a call). */
  const settled = () => t.services.auth.presence.settled();

  it('a seat that only uses the API (no console, no socket) is last seen now and online, in the list and the overview', async () => {
    const created = await adminCall(
      t,
      '/v1/admin/seats/create',
      { account: 'api-only-op', password: PASSWORD },
      token,
    );
    expect(created.data).toMatchObject({ last_seen_at: null, online: false });
    const seatId = created.data.seat_id;
    const before = Date.now();
    const login = await t.call('/v1/seat/chat/login', {
      account: 'api-only-op',
      password: PASSWORD,
    });
    expect(login.code).toBe('000000');
    await settled();
    const afterLogin = await listed('api-only-op');
    expect(afterLogin.online).toBe(true);
    expect(afterLogin.last_seen_at).toBeGreaterThanOrEqual(before);
    expect((await overviewRow(seatId)).online).toBe(true);

    // A call with its token is activity too: on another instance (a fresh app on the same
    // database), which has not written this seat yet, the first call is seen at once.
    await setLastSeen(seatId, null);
    expect(await listed('api-only-op')).toMatchObject({ last_seen_at: null, online: false });
    const second = await buildApp(t.config);
    await second.ready();
    const other = testAppOf(second, t.config);
    try {
      const called = Date.now();
      expect((await other.call('/v1/seat/chat/getGroupList', {}, login.data.token)).code).toBe(
        '000000',
      );
      await other.services.auth.presence.settled();
      const seen = await listed('api-only-op');
      expect(seen.last_seen_at).toBeGreaterThanOrEqual(called);
      expect(seen.online).toBe(true);
      expect((await overviewRow(seatId)).online).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('writes a seat at most once per interval per instance: no write for 20 calls within it', async () => {
    const seat = await createSeat(t, 'busy-api-op');
    // The login wrote it on this instance; whatever a call would write lands over this mark.
    await settled();
    await setLastSeen(seat.seatId, 1);
    for (let i = 0; i < 20; i++) {
      expect((await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).code).toBe('000000');
    }
    await settled();
    expect(await lastSeen(seat.seatId)).toBe(1);

    // The rule itself, on the real database: once per interval.
    const presence = new SeatPresence(t.db, 1_000);
    await presence.seen(seat.seatId, 10_000);
    expect(await lastSeen(seat.seatId)).toBe(10_000);
    await presence.seen(seat.seatId, 10_999);
    expect(await lastSeen(seat.seatId)).toBe(10_000);
    await presence.seen(seat.seatId, 11_000);
    expect(await lastSeen(seat.seatId)).toBe(11_000);
    // The production interval: the heartbeat, at most a minute.
    expect(presenceIntervalMs(20_000)).toBe(20_000);
    expect(presenceIntervalMs(600_000)).toBe(PRESENCE_WRITE_MAX_MS);
  });

  // PostgreSQL: another transaction holds the seat's row, so the presence write waits on it.
  it.runIf(usingPg)(
    'a call is answered while its presence write still waits for the database (never on the request path)',
    async () => {
      const seat = await createSeat(t, 'locked-presence-op');
      await settled();
      await setLastSeen(seat.seatId, 1);
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const holder = t.db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('seats')
          .select('id')
          .where('id', '=', seat.seatId)
          .forUpdate()
          .execute();
        locked();
        await released;
      });
      await isLocked;
      // A fresh instance writes the seat at its first call.
      const second = await buildApp(t.config);
      await second.ready();
      const other = testAppOf(second, t.config);
      try {
        expect((await other.call('/v1/seat/chat/getGroupList', {}, seat.token)).code).toBe(
          '000000',
        );
        // Answered, and the write has not landed: it waits behind the lock.
        expect(await lastSeen(seat.seatId)).toBe(1);
        release();
        await holder;
        await other.services.auth.presence.settled();
        expect(await lastSeen(seat.seatId)).toBeGreaterThan(1);
      } finally {
        release();
        await holder;
        await second.close();
      }
    },
  );

  it("a frozen seat's refused calls and login are not activity: it stays last seen before, not online", async () => {
    const seat = await createSeat(t, 'frozen-api-op');
    await settled();
    expect(
      (await adminCall(t, '/v1/admin/seats/freeze', { seat_id: seat.seatId, frozen: true }, token))
        .code,
    ).toBe('000000');
    await setLastSeen(seat.seatId, 1);
    // Another instance has not written the seat yet: it would write at its first activity.
    const second = await buildApp(t.config);
    await second.ready();
    const other = testAppOf(second, t.config);
    try {
      expect((await other.call('/v1/seat/chat/getGroupList', {}, seat.token)).code).toBe('200002');
      expect(
        (await other.call('/v1/seat/chat/login', { account: 'frozen-api-op', password: PASSWORD }))
          .code,
      ).toBe('200002');
      await other.services.auth.presence.settled();
    } finally {
      await second.close();
    }
    expect(await listed('frozen-api-op')).toMatchObject({ last_seen_at: 1, online: false });
    // A token still trusted from a cache elsewhere moves nothing once the seat is frozen.
    const presence = new SeatPresence(t.db, 1_000);
    await presence.seen(seat.seatId, 50_000);
    expect(await lastSeen(seat.seatId)).toBe(1);
  });
});

describe('seats/freeze', () => {
  it("freezing ends the seat's logins and closes its push socket at once; unfreezing lets it in again", async () => {
    const seat = await createSeat(t, 'frozen-op');
    const socket = await PushClient.open(base, { token: seat.token });
    sockets.push(socket);
    await socket.waitFor('ready');
    const res = await adminCall(
      t,
      '/v1/admin/seats/freeze',
      { seat_id: seat.seatId, frozen: true },
      token,
    );
    expect(res.data).toMatchObject({ frozen: true, online: false });
    // The heartbeat is 10 minutes away: the freeze itself closed it.
    expect(await socket.waitFor('error')).toMatchObject({ code: '400002' });
    expect((await socket.waitForClose(2000)).code).toBe(4001);
    expect((await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).code).toBe('200002');
    expect(
      (await t.call('/v1/seat/chat/login', { account: 'frozen-op', password: PASSWORD })).code,
    ).toBe('200002');

    const thawed = await adminCall(
      t,
      '/v1/admin/seats/freeze',
      { seat_id: seat.seatId, frozen: false },
      token,
    );
    expect(thawed.data.frozen).toBe(false);
    expect(
      (await t.call('/v1/seat/chat/login', { account: 'frozen-op', password: PASSWORD })).code,
    ).toBe('000000');
    const rows = await t.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('target_id', '=', seat.seatId)
      .where('target_type', '=', 'seat')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['seat.create', 'seat.freeze', 'seat.unfreeze']);
    expect(JSON.parse(rows[1]!.before!).frozen).toBe(false);
    expect(JSON.parse(rows[1]!.after!).frozen).toBe(true);
  });

  it('refuses an unknown seat and a bad body, changing nothing', async () => {
    expect(
      (await adminCall(t, '/v1/admin/seats/freeze', { seat_id: 999_999, frozen: true }, token))
        .code,
    ).toBe('200001');
    expect(
      (await adminCall(t, '/v1/admin/seats/freeze', { seat_id: 1, frozen: 'yes' }, token)).code,
    ).toBe('100001');
    const frozen = await t.db.selectFrom('seats').select('id').where('frozen', '=', 1).execute();
    expect(frozen.every((s) => s.id !== 1)).toBe(true);
  });
});
