import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_WINDOW_MS } from '@parley/protocol';
import { createChat, createGroup, createSeat } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const LIST = '/v1/seat/chat/getGroupList';
const DO = '/v1/seat/chat/doGroup';
const OLD = () => Date.now() - RECENT_WINDOW_MS - 3600_000;

describe('getGroupList', () => {
  it('lists built-ins and custom groups in order, Blocked disabled, with unread counts', async () => {
    const seat = await createSeat(t, 'g-list');
    const vip = await createGroup(t, seat, 'VIP');
    const later = await createGroup(t, seat, 'Later');
    await createChat(t.db, seat, { unread: 3 });
    await createChat(t.db, seat, { unread: 2, latestTime: OLD() });
    await createChat(t.db, seat, { groupId: vip, unread: 5 });
    await createChat(t.db, seat, { groupId: vip, unread: 4, lastDirection: 'out' });
    await createChat(t.db, seat, {
      groupId: seat.groups.tg_link_pushed,
      unread: 1,
      latestTime: OLD(),
    });
    await createChat(t.db, seat, { groupId: seat.groups.blocked, unread: 0 });

    const res = await t.call(LIST, { seat_id: 1 }, seat.token);
    expect(res.code).toBe('000000');
    const list = res.data.group_list;
    expect(list.map((g) => g.group_name)).toEqual([
      'Ungrouped',
      'VIP',
      'Later',
      'TG link pushed',
      'Blocked',
    ]);
    expect(list.map((g) => g.group_type)).toEqual([
      'ungrouped',
      'custom',
      'custom',
      'tg_link_pushed',
      'blocked',
    ]);
    expect(list.map((g) => g.disabled)).toEqual([false, false, false, false, true]);
    expect(list.map((g) => g.un_read)).toEqual([5, 9, 0, 1, 0]);
    expect(list[1]!.group_id).toBe(vip);
    expect(list[2]!.group_id).toBe(later);
    expect(res.data.un_read_count).toBe(15);
    expect(res.data.seat_one_seat_msg_count).toBe(12);
    expect(res.data.seat_two_seat_msg_count).toBe(3);

    // reply = 1: only chats whose last message came from the customer.
    const waiting = await t.call(LIST, { reply: 1 }, seat.token);
    expect(waiting.data.group_list.map((g) => g.un_read)).toEqual([5, 5, 0, 1, 0]);
    expect(waiting.data.un_read_count).toBe(11);
  });

  it('validates reply', async () => {
    const seat = await createSeat(t, 'g-valid');
    const res = await t.call(LIST, { reply: 7 }, seat.token);
    expect(res.code).toBe('100001');
    expect(res.msg).toBe('Parameter error: reply');
  });
});

describe('doGroup', () => {
  it('creates, renames and deletes a custom group', async () => {
    const seat = await createSeat(t, 'g-crud');
    const add = await t.call(DO, { type: 'add', group_name: '  Follow-up ' }, seat.token);
    expect(add.code).toBe('000000');
    expect(add.data.group).toMatchObject({
      group_name: 'Follow-up',
      group_type: 'custom',
      un_read: 0,
    });
    const id = add.data.group.group_id;

    const edit = await t.call(
      DO,
      { type: 'edit', group_id: id, group_name: 'Callbacks' },
      seat.token,
    );
    expect(edit.code).toBe('000000');
    expect(edit.data.group.group_name).toBe('Callbacks');
    // Renaming to its own name is fine.
    expect(
      (await t.call(DO, { type: 'edit', group_id: id, group_name: 'Callbacks' }, seat.token)).code,
    ).toBe('000000');

    const del = await t.call(DO, { type: 'del', group_id: id }, seat.token);
    expect(del.code).toBe('000000');
    expect(del.data.group.group_type).toBe('ungrouped');
    const names = (await t.call(LIST, {}, seat.token)).data.group_list.map((g) => g.group_name);
    expect(names).not.toContain('Callbacks');
  });

  it('100001 for an empty or too long name, naming group_name; nothing changes', async () => {
    const seat = await createSeat(t, 'g-names');
    const before = (await t.call(LIST, {}, seat.token)).data.group_list.length;
    for (const group_name of ['', '   ', 'x'.repeat(51)]) {
      const res = await t.call(DO, { type: 'add', group_name }, seat.token);
      expect(res.code).toBe('100001');
      expect(res.msg).toBe('Parameter error: group_name');
    }
    expect((await t.call(DO, { type: 'add', group_name: 'x'.repeat(50) }, seat.token)).code).toBe(
      '000000',
    );
    const bad = await t.call(DO, { type: 'rename', group_name: 'A' }, seat.token);
    expect(bad.code).toBe('100001');
    expect(bad.msg).toBe('Parameter error: type');
    const noId = await t.call(DO, { type: 'edit', group_name: 'A' }, seat.token);
    expect(noId.msg).toBe('Parameter error: group_id');
    expect((await t.call(LIST, {}, seat.token)).data.group_list.length).toBe(before + 1);
  });

  it('500002 for a duplicate name of the same seat', async () => {
    const seat = await createSeat(t, 'g-dup');
    const other = await createSeat(t, 'g-dup-other');
    await createGroup(t, seat, 'VIP');
    const second = await createGroup(t, seat, 'Second');
    const dup = await t.call(DO, { type: 'add', group_name: 'VIP' }, seat.token);
    expect(dup.code).toBe('500002');
    expect(dup.msg).toBe('Data already exists');
    const rename = await t.call(
      DO,
      { type: 'edit', group_id: second, group_name: 'VIP' },
      seat.token,
    );
    expect(rename.code).toBe('500002');
    // Another seat may use the same name.
    expect((await t.call(DO, { type: 'add', group_name: 'VIP' }, other.token)).code).toBe('000000');
  });

  it('400003 for renaming or deleting a built-in group', async () => {
    const seat = await createSeat(t, 'g-builtin');
    for (const id of Object.values(seat.groups)) {
      const edit = await t.call(DO, { type: 'edit', group_id: id, group_name: 'Mine' }, seat.token);
      expect(edit.code).toBe('400003');
      expect(edit.msg).toBe('Failed to get permissions');
      expect((await t.call(DO, { type: 'del', group_id: id }, seat.token)).code).toBe('400003');
    }
    const names = (await t.call(LIST, {}, seat.token)).data.group_list.map((g) => g.group_name);
    expect(names).toEqual(['Ungrouped', 'TG link pushed', 'Blocked']);
  });

  it('400001 for an unknown group', async () => {
    const seat = await createSeat(t, 'g-unknown');
    for (const body of [
      { type: 'edit', group_id: 999999, group_name: 'A' },
      { type: 'del', group_id: 999999 },
    ] as const) {
      const res = await t.call(DO, body, seat.token);
      expect(res.code).toBe('400001');
      expect(res.status).toBe(200);
    }
  });

  it('deleting a group moves its chats to Ungrouped, keeping their unread counts', async () => {
    const seat = await createSeat(t, 'g-move');
    const vip = await createGroup(t, seat, 'VIP');
    await createChat(t.db, seat, { unread: 1 });
    const a = await createChat(t.db, seat, { groupId: vip, unread: 2 });
    const b = await createChat(t.db, seat, { groupId: vip, unread: 3, latestTime: OLD() });
    const del = await t.call(DO, { type: 'del', group_id: vip }, seat.token);
    expect(del.data.moved_sessions).toBe(2);
    expect(del.data.group).toMatchObject({ group_id: seat.groups.ungrouped, un_read: 6 });
    const list = await t.call(LIST, {}, seat.token);
    expect(list.data.group_list[0]!.un_read).toBe(6);
    expect(list.data.un_read_count).toBe(6);
    const rows = await t.db
      .selectFrom('sessions')
      .select(['id', 'group_id'])
      .where('id', 'in', [a.sessionId, b.sessionId])
      .execute();
    expect(rows.every((r) => r.group_id === seat.groups.ungrouped)).toBe(true);
    const gone = await t.call('/v1/seat/chat/getGroupInfo', { group_id: vip }, seat.token);
    expect(gone.code).toBe('400001');
  });
});

describe('oneClickRead', () => {
  it('clears one group, then all; counts follow', async () => {
    const seat = await createSeat(t, 'g-read');
    const vip = await createGroup(t, seat, 'VIP');
    await createChat(t.db, seat, { unread: 2 });
    await createChat(t.db, seat, { groupId: vip, unread: 3 });
    await createChat(t.db, seat, { groupId: vip, unread: 4, latestTime: OLD() });

    const one = await t.call('/v1/seat/chat/oneClickRead', { group_id: vip }, seat.token);
    expect(one.code).toBe('000000');
    expect(one.data.cleared).toBe(7);
    let list = await t.call(LIST, {}, seat.token);
    expect(list.data.group_list.map((g) => g.un_read)).toEqual([2, 0, 0, 0]);
    expect(list.data.un_read_count).toBe(2);
    expect(list.data.seat_two_seat_msg_count).toBe(0);

    const all = await t.call('/v1/seat/chat/oneClickRead', {}, seat.token);
    expect(all.data.cleared).toBe(2);
    list = await t.call(LIST, {}, seat.token);
    expect(list.data.un_read_count).toBe(0);
    expect((await t.call('/v1/seat/chat/oneClickRead', {}, seat.token)).data.cleared).toBe(0);
  });

  it('400001 for an unknown group, 100001 for a bad one', async () => {
    const seat = await createSeat(t, 'g-read-bad');
    expect(
      (await t.call('/v1/seat/chat/oneClickRead', { group_id: 424242 }, seat.token)).code,
    ).toBe('400001');
    const bad = await t.call('/v1/seat/chat/oneClickRead', { group_id: 'x' }, seat.token);
    expect(bad.msg).toBe('Parameter error: group_id');
  });
});
