import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, createGroup, createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const INFO = '/v1/seat/chat/getGroupInfo';
const TOP = '/v1/seat/chat/sessionDoTop';
const SET_REMARK = '/v1/seat/chat/set_remark';
const GET_REMARK = '/v1/seat/chat/get_remark';
const MOVE = '/v1/seat/chat/moveSessionGroup';
const BLOCK = '/v1/seat/chat/block';
const UNBLOCK = '/v1/seat/chat/unblock';
const DEL = '/v1/seat/chat/delSession';
const SEND = '/v1/seat/chat/message';

function sessionRow(id: number) {
  return t.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

async function listIds(seat: SeatFixture, groupId: number) {
  const res = await t.call(INFO, { group_id: groupId }, seat.token);
  expect(res.code).toBe('000000');
  return res.data.account_list.map((s) => s.session_id);
}

/** Every body an id-only session call is given for validation: 100001 naming session_id. */
const BAD_SESSION_IDS: Record<string, unknown>[] = [
  {},
  { session_id: 0 },
  { session_id: -3 },
  { session_id: 1.5 },
  { session_id: '12' },
];

describe('sessionDoTop', () => {
  it('pins a chat to the top of its group and unpins it back into time order', async () => {
    const seat = await createSeat(t, 'top-owner');
    const older = await createChat(t.db, seat, { latestTime: Date.now() - 3600_000 });
    const newer = await createChat(t.db, seat, { latestTime: Date.now() - 60_000 });
    expect(await listIds(seat, seat.groups.ungrouped)).toEqual([newer.sessionId, older.sessionId]);

    const pin = await t.call(TOP, { session_id: older.sessionId, is_top: true }, seat.token);
    expect(pin.code).toBe('000000');
    expect(pin.data).toMatchObject({ session_id: older.sessionId, is_top: true });
    expect(await listIds(seat, seat.groups.ungrouped)).toEqual([older.sessionId, newer.sessionId]);

    // Pinning again is harmless.
    const again = await t.call(TOP, { session_id: older.sessionId, is_top: true }, seat.token);
    expect(again.data.is_top).toBe(true);

    const unpin = await t.call(TOP, { session_id: older.sessionId, is_top: false }, seat.token);
    expect(unpin.data.is_top).toBe(false);
    expect(await listIds(seat, seat.groups.ungrouped)).toEqual([newer.sessionId, older.sessionId]);
  });

  it('400001 for an unknown or foreign chat, 100001 naming bad fields, nothing changed', async () => {
    const seat = await createSeat(t, 'top-errors');
    const other = await createSeat(t, 'top-other');
    const chat = await createChat(t.db, seat);
    const foreign = await createChat(t.db, other);
    expect((await t.call(TOP, { session_id: 987654, is_top: true }, seat.token)).code).toBe(
      '400001',
    );
    const res = await t.call(TOP, { session_id: foreign.sessionId, is_top: true }, seat.token);
    expect(res.code).toBe('400001');
    expect(res.status).toBe(200);
    expect((await sessionRow(foreign.sessionId))!.is_top).toBe(0);

    for (const body of BAD_SESSION_IDS) {
      const bad = await t.call(TOP, { is_top: true, ...body }, seat.token);
      expect(bad.code, JSON.stringify(body)).toBe('100001');
      expect(bad.msg).toBe('Parameter error: session_id');
    }
    for (const isTop of [undefined, 1, 'yes', null]) {
      const bad = await t.call(TOP, { session_id: chat.sessionId, is_top: isTop }, seat.token);
      expect(bad.code).toBe('100001');
      expect(bad.msg).toBe('Parameter error: is_top');
    }
    expect((await sessionRow(chat.sessionId))!.is_top).toBe(0);
  });
});

describe('set_remark / get_remark', () => {
  it('stores the trimmed remark; get_remark and the user list return it; keyword finds it', async () => {
    const seat = await createSeat(t, 'remark-owner');
    const chat = await createChat(t.db, seat);
    await createChat(t.db, seat);
    const empty = await t.call(GET_REMARK, { session_id: chat.sessionId }, seat.token);
    expect(empty.data).toEqual({ session_id: chat.sessionId, remark: '' });

    const set = await t.call(
      SET_REMARK,
      { session_id: chat.sessionId, remark: '  Wholesale buyer — Lisbon  ' },
      seat.token,
    );
    expect(set.code).toBe('000000');
    expect(set.data).toEqual({ session_id: chat.sessionId, remark: 'Wholesale buyer — Lisbon' });
    const got = await t.call(GET_REMARK, { session_id: chat.sessionId }, seat.token);
    expect(got.data.remark).toBe('Wholesale buyer — Lisbon');

    const found = await t.call(
      INFO,
      { group_id: seat.groups.ungrouped, keyword: 'LISBON' },
      seat.token,
    );
    expect(found.data.total).toBe(1);
    expect(found.data.account_list[0]).toMatchObject({
      session_id: chat.sessionId,
      remark: 'Wholesale buyer — Lisbon',
    });

    // 100 characters is the limit; an empty remark clears it.
    const max = 'r'.repeat(100);
    expect(
      (await t.call(SET_REMARK, { session_id: chat.sessionId, remark: max }, seat.token)).data
        .remark,
    ).toBe(max);
    const cleared = await t.call(
      SET_REMARK,
      { session_id: chat.sessionId, remark: '' },
      seat.token,
    );
    expect(cleared.data.remark).toBe('');
    expect((await sessionRow(chat.sessionId))!.remark).toBe('');
  });

  it('400001 for an unknown or foreign chat, 100001 naming bad fields, nothing changed', async () => {
    const seat = await createSeat(t, 'remark-errors');
    const other = await createSeat(t, 'remark-other');
    const chat = await createChat(t.db, seat, { remark: 'keep me' });
    const foreign = await createChat(t.db, other, { remark: 'secret' });
    for (const id of [987654, foreign.sessionId]) {
      expect((await t.call(GET_REMARK, { session_id: id }, seat.token)).code).toBe('400001');
      expect((await t.call(SET_REMARK, { session_id: id, remark: 'x' }, seat.token)).code).toBe(
        '400001',
      );
    }
    expect((await sessionRow(foreign.sessionId))!.remark).toBe('secret');

    const cases: [Record<string, unknown>, string][] = [
      [{ session_id: chat.sessionId, remark: 'r'.repeat(101) }, 'remark'],
      [{ session_id: chat.sessionId }, 'remark'],
      [{ session_id: chat.sessionId, remark: 7 }, 'remark'],
      [{ remark: 'x' }, 'session_id'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call(SET_REMARK, body, seat.token);
      expect(res.code, JSON.stringify(body)).toBe('100001');
      expect(res.msg).toBe(`Parameter error: ${field}`);
    }
    for (const body of BAD_SESSION_IDS) {
      const res = await t.call(GET_REMARK, body, seat.token);
      expect(res.code).toBe('100001');
      expect(res.msg).toBe('Parameter error: session_id');
    }
    expect((await sessionRow(chat.sessionId))!.remark).toBe('keep me');
  });
});

describe('moveSessionGroup', () => {
  it('moves a chat into another group of the seat, counts follow', async () => {
    const seat = await createSeat(t, 'move-owner');
    const vip = await createGroup(t, seat, 'VIP');
    const chat = await createChat(t.db, seat, { unread: 3 });
    const res = await t.call(MOVE, { session_id: chat.sessionId, group_id: vip }, seat.token);
    expect(res.code).toBe('000000');
    expect(res.data).toMatchObject({ session_id: chat.sessionId, group_id: vip, blocked: false });
    expect(await listIds(seat, vip)).toEqual([chat.sessionId]);
    expect(await listIds(seat, seat.groups.ungrouped)).toEqual([]);
    const groups = (await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).data.group_list;
    expect(groups.find((g) => g.group_id === vip)!.un_read).toBe(3);
    expect(groups.find((g) => g.group_id === seat.groups.ungrouped)!.un_read).toBe(0);

    // And on into TG link pushed, then back.
    const tg = await t.call(
      MOVE,
      { session_id: chat.sessionId, group_id: seat.groups.tg_link_pushed },
      seat.token,
    );
    expect(tg.data.group_id).toBe(seat.groups.tg_link_pushed);
    const back = await t.call(
      MOVE,
      { session_id: chat.sessionId, group_id: seat.groups.ungrouped },
      seat.token,
    );
    expect(back.data.group_id).toBe(seat.groups.ungrouped);
  });

  it('the same group is 100001 naming group_id; Blocked in or out is 400003', async () => {
    const seat = await createSeat(t, 'move-rules');
    const vip = await createGroup(t, seat, 'VIP');
    const chat = await createChat(t.db, seat, { groupId: vip });
    const same = await t.call(MOVE, { session_id: chat.sessionId, group_id: vip }, seat.token);
    expect(same.code).toBe('100001');
    expect(same.msg).toBe('Parameter error: group_id');
    expect(same.data).toEqual({
      fields: [{ path: 'group_id', message: 'same as the current group' }],
    });

    const intoBlocked = await t.call(
      MOVE,
      { session_id: chat.sessionId, group_id: seat.groups.blocked },
      seat.token,
    );
    expect(intoBlocked.code).toBe('400003');
    expect(intoBlocked.status).toBe(200);
    expect(await sessionRow(chat.sessionId)).toMatchObject({ group_id: vip, blocked: 0 });

    const blocked = await createChat(t.db, seat, { groupId: seat.groups.blocked });
    for (const groupId of [vip, seat.groups.ungrouped, seat.groups.blocked]) {
      const out = await t.call(
        MOVE,
        { session_id: blocked.sessionId, group_id: groupId },
        seat.token,
      );
      expect(out.code, String(groupId)).toBe('400003');
    }
    expect(await sessionRow(blocked.sessionId)).toMatchObject({
      group_id: seat.groups.blocked,
      blocked: 1,
    });
  });

  it('400001 for an unknown or foreign chat or group, 100001 naming bad fields', async () => {
    const seat = await createSeat(t, 'move-errors');
    const other = await createSeat(t, 'move-other');
    const otherGroup = await createGroup(t, other, 'Theirs');
    const chat = await createChat(t.db, seat);
    const foreign = await createChat(t.db, other);
    const cases: [Record<string, unknown>, string][] = [
      [{ session_id: chat.sessionId, group_id: 987654 }, '400001'],
      [{ session_id: chat.sessionId, group_id: otherGroup }, '400001'],
      [{ session_id: chat.sessionId, group_id: other.groups.tg_link_pushed }, '400001'],
      [{ session_id: 987654, group_id: seat.groups.tg_link_pushed }, '400001'],
      [{ session_id: foreign.sessionId, group_id: seat.groups.tg_link_pushed }, '400001'],
      [{ session_id: foreign.sessionId, group_id: otherGroup }, '400001'],
    ];
    for (const [body, code] of cases) {
      expect((await t.call(MOVE, body, seat.token)).code, JSON.stringify(body)).toBe(code);
    }
    const fields: [Record<string, unknown>, string][] = [
      [{ session_id: chat.sessionId }, 'group_id'],
      [{ session_id: chat.sessionId, group_id: 'vip' }, 'group_id'],
      [{ group_id: seat.groups.tg_link_pushed }, 'session_id'],
    ];
    for (const [body, field] of fields) {
      const res = await t.call(MOVE, body, seat.token);
      expect(res.code).toBe('100001');
      expect(res.msg).toBe(`Parameter error: ${field}`);
    }
    expect((await sessionRow(chat.sessionId))!.group_id).toBe(seat.groups.ungrouped);
    expect((await sessionRow(foreign.sessionId))!.group_id).toBe(other.groups.ungrouped);
  });
});

describe('block / unblock', () => {
  it('block moves the chat to Blocked (remembering its group) and stops sending; unblock brings it back to Ungrouped', async () => {
    const seat = await createSeat(t, 'block-owner');
    const vip = await createGroup(t, seat, 'VIP');
    const chat = await createChat(t.db, seat, { groupId: vip, unread: 2 });
    const send = (id: string) =>
      t.call(
        SEND,
        {
          send_phone: chat.sendPhone,
          receiver_phone: chat.receiverPhone,
          content: 'hi',
          client_msg_id: id,
        },
        seat.token,
      );

    const blocked = await t.call(BLOCK, { session_id: chat.sessionId }, seat.token);
    expect(blocked.code).toBe('000000');
    expect(blocked.data).toMatchObject({
      session_id: chat.sessionId,
      group_id: seat.groups.blocked,
      blocked: true,
    });
    expect(await sessionRow(chat.sessionId)).toMatchObject({
      group_id: seat.groups.blocked,
      prev_group_id: vip,
      blocked: 1,
    });
    expect(await listIds(seat, seat.groups.blocked)).toEqual([chat.sessionId]);
    expect(await listIds(seat, vip)).toEqual([]);
    const groups = (await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).data.group_list;
    expect(groups.find((g) => g.group_id === seat.groups.blocked)).toMatchObject({
      un_read: 2,
      disabled: true,
    });
    expect((await send('blocked-send-1')).code).toBe('400003');

    // Blocking again is an idempotent success: nothing moves, prev_group_id is kept.
    const again = await t.call(BLOCK, { session_id: chat.sessionId }, seat.token);
    expect(again.code).toBe('000000');
    expect(again.data).toEqual(blocked.data);
    expect((await sessionRow(chat.sessionId))!.prev_group_id).toBe(vip);

    const unblocked = await t.call(UNBLOCK, { session_id: chat.sessionId }, seat.token);
    expect(unblocked.code).toBe('000000');
    expect(unblocked.data).toMatchObject({ group_id: seat.groups.ungrouped, blocked: false });
    expect(await sessionRow(chat.sessionId)).toMatchObject({
      group_id: seat.groups.ungrouped,
      prev_group_id: null,
      blocked: 0,
    });
    expect(await listIds(seat, seat.groups.ungrouped)).toEqual([chat.sessionId]);
    expect((await send('unblocked-send-1')).code).toBe('000000');

    // Unblocking an unblocked chat is an idempotent success that changes nothing.
    const twice = await t.call(UNBLOCK, { session_id: chat.sessionId }, seat.token);
    expect(twice.code).toBe('000000');
    expect(twice.data.group_id).toBe(seat.groups.ungrouped);
    const inVip = await createChat(t.db, seat, { groupId: vip });
    const notBlocked = await t.call(UNBLOCK, { session_id: inVip.sessionId }, seat.token);
    expect(notBlocked.data).toMatchObject({ group_id: vip, blocked: false });
  });

  it('400001 for an unknown or foreign chat, 100001 naming bad fields, nothing changed', async () => {
    const seat = await createSeat(t, 'block-errors');
    const other = await createSeat(t, 'block-other');
    const foreign = await createChat(t.db, other);
    const foreignBlocked = await createChat(t.db, other, { groupId: other.groups.blocked });
    for (const path of [BLOCK, UNBLOCK] as const) {
      for (const id of [987654, foreign.sessionId, foreignBlocked.sessionId]) {
        expect((await t.call(path, { session_id: id }, seat.token)).code).toBe('400001');
      }
      for (const body of BAD_SESSION_IDS) {
        const res = await t.call(path, body, seat.token);
        expect(res.code).toBe('100001');
        expect(res.msg).toBe('Parameter error: session_id');
      }
    }
    expect(await sessionRow(foreign.sessionId)).toMatchObject({ blocked: 0 });
    expect(await sessionRow(foreignBlocked.sessionId)).toMatchObject({ blocked: 1 });
  });
});

describe('delSession', () => {
  it('hard-deletes the chat and its messages; the user list and counts forget it', async () => {
    const seat = await createSeat(t, 'del-owner');
    const chat = await createChat(t.db, seat, { unread: 3, inbound: 4 });
    const kept = await createChat(t.db, seat, { unread: 1 });
    const res = await t.call(DEL, { session_id: chat.sessionId }, seat.token);
    expect(res.code).toBe('000000');
    expect(res.data).toEqual({ session_id: chat.sessionId });
    expect(await sessionRow(chat.sessionId)).toBeUndefined();
    const messages = await t.db
      .selectFrom('messages')
      .select('id')
      .where('session_id', '=', chat.sessionId)
      .execute();
    expect(messages).toHaveLength(0);
    expect(await listIds(seat, seat.groups.ungrouped)).toEqual([kept.sessionId]);
    expect((await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).data.un_read_count).toBe(1);
    const record = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone },
      seat.token,
    );
    expect(record.code).toBe('400001');
    // Deleting it again: it no longer exists.
    expect((await t.call(DEL, { session_id: chat.sessionId }, seat.token)).code).toBe('400001');
  });

  it('400001 for an unknown or foreign chat, 100001 naming bad fields, nothing deleted', async () => {
    const seat = await createSeat(t, 'del-errors');
    const other = await createSeat(t, 'del-other');
    const foreign = await createChat(t.db, other, { inbound: 2 });
    expect((await t.call(DEL, { session_id: 987654 }, seat.token)).code).toBe('400001');
    expect((await t.call(DEL, { session_id: foreign.sessionId }, seat.token)).code).toBe('400001');
    for (const body of BAD_SESSION_IDS) {
      const res = await t.call(DEL, body, seat.token);
      expect(res.code).toBe('100001');
      expect(res.msg).toBe('Parameter error: session_id');
    }
    expect(await sessionRow(foreign.sessionId)).toBeDefined();
    const messages = await t.db
      .selectFrom('messages')
      .select('id')
      .where('session_id', '=', foreign.sessionId)
      .execute();
    expect(messages).toHaveLength(2);
  });
});
