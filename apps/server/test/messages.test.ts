import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_WINDOW_MS } from '@parley/protocol';
import { createChat, createGroup, createSeat, nextPhone } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const RECORD = '/v1/seat/chat/getChatRecord';
const SEND = '/v1/seat/chat/message';
const LIST = '/v1/seat/chat/getGroupList';

describe('getChatRecord', () => {
  it('pages from the newest, oldest-first within a page, to older pages with before_id', async () => {
    const seat = await createSeat(t, 'm-page');
    const chat = await createChat(t.db, seat, { inbound: 23, unread: 0 });
    const ref = { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone };
    const seen: number[] = [];
    let before: number | undefined;
    let pages = 0;
    for (;;) {
      const res = await t.call(
        RECORD,
        { ...ref, page_size: 10, ...(before ? { before_id: before } : {}) },
        seat.token,
      );
      expect(res.code).toBe('000000');
      const ids = res.data.list.map((m) => m.msg_id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      seen.unshift(...ids);
      pages++;
      if (!res.data.has_more) break;
      before = ids[0];
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    const first = await t.call(RECORD, { ...ref, page_size: 10 }, seat.token);
    expect(first.data.list.at(-1)!.content).toBe('hello 23');
    expect(first.data.list[0]).toMatchObject({ direction: 'in', type: 'text', deleted: false });
  });

  it('opens a window around a message (a search hit) and pages newer with after_id', async () => {
    const seat = await createSeat(t, 'm-around');
    const chat = await createChat(t.db, seat, { inbound: 30, unread: 0 });
    const ref = { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone };
    const all = (await t.call(RECORD, { ...ref, page_size: 200 }, seat.token)).data.list;
    expect(all).toHaveLength(30);
    expect((await t.call(RECORD, { ...ref, page_size: 200 }, seat.token)).data.has_newer).toBe(
      false,
    );
    const hit = all[14]!;

    const around = await t.call(
      RECORD,
      { ...ref, around_id: hit.msg_id, page_size: 10 },
      seat.token,
    );
    expect(around.code).toBe('000000');
    expect(around.data.list.map((m) => m.msg_id)).toEqual(all.slice(9, 19).map((m) => m.msg_id));
    expect(around.data).toMatchObject({ has_more: true, has_newer: true });

    const last = around.data.list.at(-1)!.msg_id;
    const newer = await t.call(RECORD, { ...ref, after_id: last, page_size: 10 }, seat.token);
    expect(newer.data.list.map((m) => m.msg_id)).toEqual(all.slice(19, 29).map((m) => m.msg_id));
    expect(newer.data.has_newer).toBe(true);
    const newest = await t.call(
      RECORD,
      { ...ref, after_id: newer.data.list.at(-1)!.msg_id, page_size: 10 },
      seat.token,
    );
    expect(newest.data.list.map((m) => m.msg_id)).toEqual([all[29]!.msg_id]);
    expect(newest.data.has_newer).toBe(false);

    const older = await t.call(RECORD, { ...ref, before_id: all[0]!.msg_id }, seat.token);
    expect(older.data).toMatchObject({ list: [], has_more: false, has_newer: true });
  });

  it('refuses two anchors at once and an anchor from another chat', async () => {
    const seat = await createSeat(t, 'm-around-bad');
    const chat = await createChat(t.db, seat, { inbound: 3, unread: 0 });
    const other = await createChat(t.db, seat, { inbound: 3, unread: 0 });
    const ref = { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone };
    const otherRef = { send_phone: other.sendPhone, receiver_phone: other.receiverPhone };
    const foreign = (await t.call(RECORD, otherRef, seat.token)).data.list[0]!.msg_id;
    const both = await t.call(RECORD, { ...ref, before_id: 5, around_id: 5 }, seat.token);
    expect(both.code).toBe('100001');
    expect(both.msg).toContain('around_id');
    const wrongChat = await t.call(RECORD, { ...ref, around_id: foreign }, seat.token);
    expect(wrongChat.code).toBe('400001');
  });

  it('clears the unread count; group, total and time-tab counts drop by that amount', async () => {
    const seat = await createSeat(t, 'm-unread');
    const vip = await createGroup(t, seat, 'VIP');
    const old = Date.now() - RECENT_WINDOW_MS - 60_000;
    await createChat(t.db, seat, { groupId: vip, unread: 2 });
    const target = await createChat(t.db, seat, { groupId: vip, unread: 5, inbound: 6 });
    const older = await createChat(t.db, seat, { unread: 4, latestTime: old });

    const before = (await t.call(LIST, {}, seat.token)).data;
    expect(before.un_read_count).toBe(11);
    expect(before.seat_one_seat_msg_count).toBe(7);
    expect(before.seat_two_seat_msg_count).toBe(4);

    const res = await t.call(
      RECORD,
      { send_phone: target.sendPhone, receiver_phone: target.receiverPhone, group_id: vip },
      seat.token,
    );
    expect(res.code).toBe('000000');
    expect(res.data.list).toHaveLength(6);

    const after = (await t.call(LIST, {}, seat.token)).data;
    const groupOf = (d: typeof before, id: number) => d.group_list.find((g) => g.group_id === id)!;
    expect(groupOf(after, vip).un_read).toBe(groupOf(before, vip).un_read - 5);
    expect(after.un_read_count).toBe(before.un_read_count - 5);
    expect(after.seat_one_seat_msg_count).toBe(before.seat_one_seat_msg_count - 5);
    expect(after.seat_two_seat_msg_count).toBe(before.seat_two_seat_msg_count);
    const info = await t.call('/v1/seat/chat/getGroupInfo', { group_id: vip }, seat.token);
    const item = info.data.account_list.find((s) => s.session_id === target.sessionId)!;
    expect(item.un_read_count).toBe(0);

    await t.call(
      RECORD,
      { send_phone: older.sendPhone, receiver_phone: older.receiverPhone },
      seat.token,
    );
    const last = (await t.call(LIST, {}, seat.token)).data;
    expect(last.seat_two_seat_msg_count).toBe(0);
    expect(last.un_read_count).toBe(2);
  });

  it('400001 for an unknown chat, 100001 naming bad fields', async () => {
    const seat = await createSeat(t, 'm-unknown');
    const res = await t.call(
      RECORD,
      { send_phone: seat.phones[0]!, receiver_phone: '+999000111' },
      seat.token,
    );
    expect(res.code).toBe('400001');
    const bad = await t.call(RECORD, { send_phone: 'abc', receiver_phone: '+123456' }, seat.token);
    expect(bad.code).toBe('100001');
    expect(bad.msg).toBe('Parameter error: send_phone');
    const missing = await t.call(RECORD, { send_phone: seat.phones[0]! }, seat.token);
    expect(missing.msg).toBe('Parameter error: receiver_phone');
  });
});

describe('message', () => {
  it('sends a text: stored as sent, the chat moves to the top of its tab', async () => {
    const seat = await createSeat(t, 'm-send');
    const old = Date.now() - RECENT_WINDOW_MS - 60_000;
    const chat = await createChat(t.db, seat, { latestTime: old, unread: 0 });
    const res = await t.call(
      SEND,
      {
        send_phone: chat.sendPhone,
        receiver_phone: chat.receiverPhone,
        type: 'text',
        content: 'Hello! How can I help?',
        client_msg_id: 'cmid-0001',
      },
      seat.token,
    );
    expect(res.code).toBe('000000');
    expect(res.data).toMatchObject({
      session_id: chat.sessionId,
      client_msg_id: 'cmid-0001',
      direction: 'out',
      type: 'text',
      content: 'Hello! How can I help?',
      status: 'sent',
      deleted: false,
    });
    const info = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: seat.groups.ungrouped, user_time_type: 1 },
      seat.token,
    );
    const item = info.data.account_list.find((s) => s.session_id === chat.sessionId)!;
    expect(item.latest_time).toBe(res.data.created_at);
    expect(item.last_message).toMatchObject({
      direction: 'out',
      preview: 'Hello! How can I help?',
    });
    const record = await t.call(
      RECORD,
      { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone },
      seat.token,
    );
    expect(record.data.list.at(-1)!.msg_id).toBe(res.data.msg_id);
  });

  it('is stored once per client_msg_id: a repeat returns the stored message', async () => {
    const seat = await createSeat(t, 'm-idem');
    const chat = await createChat(t.db, seat);
    const body = {
      send_phone: chat.sendPhone,
      receiver_phone: chat.receiverPhone,
      content: 'Once only',
      client_msg_id: 'retry-me-123',
    };
    const [a, b] = await Promise.all([
      t.call(SEND, body, seat.token),
      t.call(SEND, body, seat.token),
    ]);
    const c = await t.call(SEND, { ...body, content: 'changed' }, seat.token);
    expect(a.code).toBe('000000');
    expect(b.data.msg_id).toBe(a.data.msg_id);
    expect(c.data).toEqual(a.data);
    const count = await t.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client_msg_id', '=', 'retry-me-123')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('refuses a chat in the Blocked group (400003) and an account of another seat (400003)', async () => {
    const seat = await createSeat(t, 'm-blocked');
    const other = await createSeat(t, 'm-blocked-other');
    const blocked = await createChat(t.db, seat, { groupId: seat.groups.blocked });
    const res = await t.call(
      SEND,
      {
        send_phone: blocked.sendPhone,
        receiver_phone: blocked.receiverPhone,
        content: 'hi',
        client_msg_id: 'blocked-001',
      },
      seat.token,
    );
    expect(res.code).toBe('400003');
    expect(res.status).toBe(200);
    const foreign = await t.call(
      SEND,
      {
        send_phone: other.phones[0]!,
        receiver_phone: blocked.receiverPhone,
        content: 'hi',
        client_msg_id: 'foreign-001',
      },
      seat.token,
    );
    expect(foreign.code).toBe('400003');
    const unknownAccount = await t.call(
      SEND,
      {
        send_phone: nextPhone(),
        receiver_phone: '+123456789',
        content: 'hi',
        client_msg_id: 'unk-acct-1',
      },
      seat.token,
    );
    expect(unknownAccount.code).toBe('400003');
    const stored = await t.db
      .selectFrom('messages')
      .select('id')
      .where('client_msg_id', 'in', ['blocked-001', 'foreign-001', 'unk-acct-1'])
      .execute();
    expect(stored).toHaveLength(0);
  });

  it('400001 for an unknown chat or media, 100001 for bad fields', async () => {
    const seat = await createSeat(t, 'm-errors');
    const chat = await createChat(t.db, seat);
    const base = { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone };
    const unknown = await t.call(
      SEND,
      {
        send_phone: chat.sendPhone,
        receiver_phone: '+10000000',
        content: 'hi',
        client_msg_id: 'unknown-1',
      },
      seat.token,
    );
    expect(unknown.code).toBe('400001');
    const image = await t.call(
      SEND,
      { ...base, type: 'image', content: '', media_id: 'm1', client_msg_id: 'image-0001' },
      seat.token,
    );
    expect(image.code).toBe('400001');
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, content: '   ', client_msg_id: 'blank-0001' }, 'content'],
      [{ ...base, content: 'x'.repeat(4097), client_msg_id: 'long-00001' }, 'content'],
      [{ ...base, content: 'hi' }, 'client_msg_id'],
      [{ ...base, content: 'hi', client_msg_id: 'short' }, 'client_msg_id'],
      [{ ...base, content: 'hi', client_msg_id: 'bad id with spaces' }, 'client_msg_id'],
      [{ ...base, content: 'hi', client_msg_id: 'type-00001', type: 'sticker' }, 'type'],
      [{ ...base, type: 'image', content: '', client_msg_id: 'media-0001' }, 'media_id'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call(SEND, body, seat.token);
      expect(res.code, JSON.stringify(body)).toBe('100001');
      expect(res.msg).toBe(`Parameter error: ${field}`);
    }
    const count = await t.db
      .selectFrom('messages')
      .select('id')
      .where('direction', '=', 'out')
      .where('seat_id', '=', seat.seatId)
      .execute();
    expect(count).toHaveLength(0);
  });
});
