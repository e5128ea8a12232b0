import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.js';
import { messagesRepository } from '../src/modules/messages/messages.repository.js';
import { createChat, createSeat, type ChatFixture, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const DEL = '/v1/seat/chat/del_message';
const RECORD = '/v1/seat/chat/getChatRecord';
const MINUTE = 60_000;

/** An outgoing text sent `ageMs` ago (the bridge's history is not reachable through calls). */
async function outgoing(db: Db, seat: SeatFixture, chat: ChatFixture, content: string, ageMs = 0) {
  const created = Date.now() - ageMs;
  const row = await messagesRepository.insert(db, {
    session_id: chat.sessionId,
    seat_id: seat.seatId,
    client_msg_id: `out-${content.replace(/\W/g, '')}-${created}`.slice(0, 64),
    direction: 'out',
    type: 'text',
    content,
    media: null,
    status: 'sent',
    created_at: created,
    deleted_for_me: 0,
    deleted_for_all: 0,
  });
  return row.id;
}

async function send(seat: SeatFixture, chat: ChatFixture, content: string, id: string) {
  const res = await t.call(
    '/v1/seat/chat/message',
    { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone, content, client_msg_id: id },
    seat.token,
  );
  expect(res.code).toBe('000000');
  return res.data.msg_id;
}

async function record(seat: SeatFixture, chat: ChatFixture) {
  const res = await t.call(
    RECORD,
    { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone },
    seat.token,
  );
  expect(res.code).toBe('000000');
  return res.data.list;
}

async function item(seat: SeatFixture, chat: ChatFixture) {
  const res = await t.call(
    '/v1/seat/chat/getGroupInfo',
    { group_id: seat.groups.ungrouped },
    seat.token,
  );
  return res.data.account_list.find((s) => s.session_id === chat.sessionId)!;
}

function messageRow(id: number) {
  return t.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('del_message, only for me', () => {
  it('hides the message from this seat’s record; unread counts stay as they were', async () => {
    const seat = await createSeat(t, 'dm-me');
    const chat = await createChat(t.db, seat, { inbound: 3, unread: 2 });
    expect((await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).data.un_read_count).toBe(2);
    const before = await t.db
      .selectFrom('messages')
      .select('id')
      .where('session_id', '=', chat.sessionId)
      .orderBy('id')
      .execute();
    const target = before[2]!.id;

    const res = await t.call(DEL, { msg_id: target, scope: 'me' }, seat.token);
    expect(res.code).toBe('000000');
    expect(res.data).toEqual({ msg_id: target, scope: 'me' });
    const groups = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
    expect(groups.data.un_read_count).toBe(2);
    const list = await record(seat, chat);
    expect(list.map((m) => m.msg_id)).toEqual([before[0]!.id, before[1]!.id]);
    expect(await messageRow(target)).toMatchObject({ deleted_for_me: 1, deleted_for_all: 0 });

    // Repeating it is an idempotent success.
    const again = await t.call(DEL, { msg_id: target, scope: 'me' }, seat.token);
    expect(again.code).toBe('000000');
    // Once hidden for me, "for all" finds nothing to retract.
    expect((await t.call(DEL, { msg_id: target, scope: 'all' }, seat.token)).code).toBe('400001');
  });

  it('works on old and incoming messages; the preview follows the newest message still shown', async () => {
    const seat = await createSeat(t, 'dm-preview');
    const chat = await createChat(t.db, seat, { inbound: 1 });
    const old = await outgoing(t.db, seat, chat, 'from last year', 365 * 24 * 60 * MINUTE);
    const last = await send(seat, chat, 'latest words', 'dm-preview-01');
    expect((await item(seat, chat)).last_message).toMatchObject({
      direction: 'out',
      preview: 'latest words',
    });
    expect((await t.call(DEL, { msg_id: last, scope: 'me' }, seat.token)).code).toBe('000000');
    // The newest remaining message (by id) is the old outgoing one.
    expect((await item(seat, chat)).last_message).toMatchObject({
      direction: 'out',
      preview: 'from last year',
    });
    expect((await t.call(DEL, { msg_id: old, scope: 'me' }, seat.token)).code).toBe('000000');
    expect((await item(seat, chat)).last_message).toMatchObject({
      direction: 'in',
      preview: 'hello 1',
    });
    const inbound = (await record(seat, chat))[0]!.msg_id;
    expect((await t.call(DEL, { msg_id: inbound, scope: 'me' }, seat.token)).code).toBe('000000');
    expect((await item(seat, chat)).last_message).toBeNull();
    expect(await record(seat, chat)).toEqual([]);
  });
});

describe('del_message, for all', () => {
  it('retracts an outgoing message: returned deleted with empty content, preview updated', async () => {
    const seat = await createSeat(t, 'dm-all');
    const chat = await createChat(t.db, seat, { inbound: 1 });
    const first = await send(seat, chat, 'keep this', 'dm-all-0001');
    const oops = await send(seat, chat, 'wrong customer!', 'dm-all-0002');

    const res = await t.call(DEL, { msg_id: oops, scope: 'all' }, seat.token);
    expect(res.code).toBe('000000');
    expect(res.data).toEqual({ msg_id: oops, scope: 'all' });
    const list = await record(seat, chat);
    expect(list.at(-1)).toMatchObject({ msg_id: oops, deleted: true, content: '', media: null });
    expect(list.at(-2)).toMatchObject({ msg_id: first, deleted: false, content: 'keep this' });
    // Retracted: the text is gone from storage too.
    expect(await messageRow(oops)).toMatchObject({ deleted_for_all: 1, content: '' });
    expect((await item(seat, chat)).last_message).toMatchObject({ preview: 'keep this' });

    // Again: an idempotent success.
    expect((await t.call(DEL, { msg_id: oops, scope: 'all' }, seat.token)).code).toBe('000000');
    // A retracted message can still be hidden for me.
    expect((await t.call(DEL, { msg_id: oops, scope: 'me' }, seat.token)).code).toBe('000000');
    expect((await record(seat, chat)).map((m) => m.msg_id)).not.toContain(oops);
  });

  it('400003 for an incoming message and outside the window (default 120 minutes)', async () => {
    const seat = await createSeat(t, 'dm-window');
    const chat = await createChat(t.db, seat, { inbound: 1 });
    const inbound = (await record(seat, chat))[0]!.msg_id;
    const inside = await outgoing(t.db, seat, chat, 'inside', 119 * MINUTE);
    const outside = await outgoing(t.db, seat, chat, 'outside', 121 * MINUTE);

    const incoming = await t.call(DEL, { msg_id: inbound, scope: 'all' }, seat.token);
    expect(incoming.code).toBe('400003');
    expect(incoming.data).toEqual({ reason: 'not_outgoing' });
    const late = await t.call(DEL, { msg_id: outside, scope: 'all' }, seat.token);
    expect(late.code).toBe('400003');
    expect(late.status).toBe(200);
    expect(late.data).toEqual({ reason: 'window_passed', window_minutes: 120 });
    expect(await messageRow(outside)).toMatchObject({ deleted_for_all: 0, content: 'outside' });
    expect(await messageRow(inbound)).toMatchObject({ deleted_for_all: 0 });

    expect((await t.call(DEL, { msg_id: inside, scope: 'all' }, seat.token)).code).toBe('000000');
    // Only for me stays allowed for both.
    expect((await t.call(DEL, { msg_id: outside, scope: 'me' }, seat.token)).code).toBe('000000');
    expect((await t.call(DEL, { msg_id: inbound, scope: 'me' }, seat.token)).code).toBe('000000');
  });

  it('honours PARLEY_DELETE_FOR_ALL_WINDOW_MINUTES', async () => {
    const short = await createTestApp({ deleteForAllWindowMinutes: 1 });
    try {
      const seat = await createSeat(short, 'dm-config');
      const chat = await createChat(short.db, seat);
      const recent = await outgoing(short.db, seat, chat, 'recent', 10_000);
      const twoMinutes = await outgoing(short.db, seat, chat, 'two minutes', 2 * MINUTE);
      const late = await short.call(DEL, { msg_id: twoMinutes, scope: 'all' }, seat.token);
      expect(late.code).toBe('400003');
      expect(late.data).toEqual({ reason: 'window_passed', window_minutes: 1 });
      expect((await short.call(DEL, { msg_id: recent, scope: 'all' }, seat.token)).code).toBe(
        '000000',
      );
    } finally {
      await short.close();
    }
  });
});

describe('del_message errors', () => {
  it('400001 for an unknown or foreign message, 100001 naming bad fields, nothing changed', async () => {
    const seat = await createSeat(t, 'dm-errors');
    const other = await createSeat(t, 'dm-errors-other');
    const chat = await createChat(t.db, seat);
    const foreignChat = await createChat(t.db, other);
    const foreign = await send(other, foreignChat, 'theirs', 'dm-foreign-01');
    const mine = await send(seat, chat, 'mine', 'dm-mine-0001');
    for (const scope of ['me', 'all'] as const) {
      expect((await t.call(DEL, { msg_id: 987654321, scope }, seat.token)).code).toBe('400001');
      const res = await t.call(DEL, { msg_id: foreign, scope }, seat.token);
      expect(res.code).toBe('400001');
      expect(res.status).toBe(200);
    }
    expect(await messageRow(foreign)).toMatchObject({
      deleted_for_me: 0,
      deleted_for_all: 0,
      content: 'theirs',
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ msg_id: mine }, 'scope'],
      [{ msg_id: mine, scope: 'everyone' }, 'scope'],
      [{ scope: 'me' }, 'msg_id'],
      [{ msg_id: 0, scope: 'me' }, 'msg_id'],
      [{ msg_id: String(mine), scope: 'me' }, 'msg_id'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call(DEL, body, seat.token);
      expect(res.code, JSON.stringify(body)).toBe('100001');
      expect(res.msg).toBe(`Parameter error: ${field}`);
    }
    expect(await messageRow(mine)).toMatchObject({ deleted_for_me: 0, deleted_for_all: 0 });
  });
});
