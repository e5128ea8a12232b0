import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChat,
  createGroup,
  createSeat,
  type ChatFixture,
  type SeatFixture,
} from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
let a: SeatFixture;
let b: SeatFixture;
let bGroup: number;
let bChat: ChatFixture;
let bMessageCount: number;
let bReplyId: number;

beforeAll(async () => {
  t = await createTestApp();
  a = await createSeat(t, 'iso-a');
  b = await createSeat(t, 'iso-b');
  bGroup = await createGroup(t, b, 'B-only');
  bChat = await createChat(t.db, b, { groupId: bGroup, unread: 4, inbound: 5 });
  await createChat(t.db, a, { unread: 1 });
  bMessageCount = 5;
  const reply = await t.call(
    '/v1/seat/chat/quickReplyDoType',
    { type: 'add', kind: 'text', name: 'B reply', content: 'B only' },
    b.token,
  );
  bReplyId = reply.data.id;
  await t.call(
    '/v1/seat/chat/set_remark',
    { session_id: bChat.sessionId, remark: 'B remark' },
    b.token,
  );
});
afterAll(async () => t?.close());

async function bState() {
  const groups = await t.db
    .selectFrom('seat_groups')
    .select(['id', 'name'])
    .where('seat_id', '=', b.seatId)
    .orderBy('id')
    .execute();
  const sessions = await t.db
    .selectFrom('sessions')
    .selectAll()
    .where('seat_id', '=', b.seatId)
    .orderBy('id')
    .execute();
  const messages = await t.db
    .selectFrom('messages')
    .selectAll()
    .where('seat_id', '=', b.seatId)
    .orderBy('id')
    .execute();
  const quickReplies = await t.db
    .selectFrom('quick_replies')
    .selectAll()
    .where('seat_id', '=', b.seatId)
    .orderBy('id')
    .execute();
  return { groups, sessions, messages, quickReplies };
}

describe('seat isolation', () => {
  it("seat A cannot read or change seat B's groups, chats, messages, remarks or quick replies", async () => {
    const before = await bState();
    expect(before.messages).toHaveLength(bMessageCount);

    // Groups: B's custom and built-in groups are "data does not exist" for A.
    for (const id of [bGroup, b.groups.ungrouped, b.groups.blocked]) {
      expect((await t.call('/v1/seat/chat/getGroupInfo', { group_id: id }, a.token)).code).toBe(
        '400001',
      );
      expect(
        (
          await t.call(
            '/v1/seat/chat/doGroup',
            { type: 'edit', group_id: id, group_name: 'Mine' },
            a.token,
          )
        ).code,
      ).toBe('400001');
      expect(
        (await t.call('/v1/seat/chat/doGroup', { type: 'del', group_id: id }, a.token)).code,
      ).toBe('400001');
      expect((await t.call('/v1/seat/chat/oneClickRead', { group_id: id }, a.token)).code).toBe(
        '400001',
      );
    }
    // A's group list shows only A's groups and counts, whatever seat_id it sends.
    const list = await t.call('/v1/seat/chat/getGroupList', { seat_id: b.seatId }, a.token);
    const ids = list.data.group_list.map((g) => g.group_id);
    expect(ids).not.toContain(bGroup);
    expect(ids).not.toContain(b.groups.ungrouped);
    expect(list.data.un_read_count).toBe(1);

    // Chats and messages: B's chat is unknown to A, by its numbers.
    const ref = { send_phone: bChat.sendPhone, receiver_phone: bChat.receiverPhone };
    expect((await t.call('/v1/seat/chat/getChatRecord', ref, a.token)).code).toBe('400001');
    expect(
      (await t.call('/v1/seat/chat/getChatRecord', { ...ref, group_id: bGroup }, a.token)).code,
    ).toBe('400001');
    const send = await t.call(
      '/v1/seat/chat/message',
      { ...ref, content: 'sneaky', client_msg_id: 'sneaky-0001' },
      a.token,
    );
    expect(send.code).toBe('400003');
    // A's all-read leaves B's unread alone.
    await t.call('/v1/seat/chat/oneClickRead', {}, a.token);
    // Every call naming B's chat, message or quick reply by id: 400001, as if it did not exist.
    const session = { session_id: bChat.sessionId };
    const msgId = before.messages[0]!.id;
    for (const [path, body] of [
      ['/v1/seat/chat/delSession', session],
      ['/v1/seat/chat/sessionDoTop', { ...session, is_top: true }],
      ['/v1/seat/chat/moveSessionGroup', { ...session, group_id: b.groups.ungrouped }],
      ['/v1/seat/chat/moveSessionGroup', { ...session, group_id: a.groups.tg_link_pushed }],
      ['/v1/seat/chat/block', session],
      ['/v1/seat/chat/unblock', session],
      ['/v1/seat/chat/set_remark', { ...session, remark: 'x' }],
      ['/v1/seat/chat/get_remark', session],
      ['/v1/seat/chat/del_message', { msg_id: msgId, scope: 'me' }],
      ['/v1/seat/chat/del_message', { msg_id: msgId, scope: 'all' }],
      [
        '/v1/seat/chat/quickReplyDoType',
        { type: 'edit', id: bReplyId, kind: 'text', name: 'Mine', content: 'taken' },
      ],
      ['/v1/seat/chat/quickReplyDoType', { type: 'del', id: bReplyId }],
    ] as const) {
      const res = await t.call(path, body as never, a.token);
      expect(res.code, `${path} ${JSON.stringify(body)}`).toBe('400001');
      expect(res.raw).not.toContain('B remark');
    }
    // A's moving its own chat into B's group: that group does not exist for A.
    const aChat = await createChat(t.db, a);
    expect(
      (
        await t.call(
          '/v1/seat/chat/moveSessionGroup',
          { session_id: aChat.sessionId, group_id: bGroup },
          a.token,
        )
      ).code,
    ).toBe('400001');
    // Starting a chat from B's account is refused before anything about B's chats is said.
    const add = await t.call(
      '/v1/seat/chat/addSession',
      { ...ref, greeting: 'sneaky', client_msg_id: 'sneaky-add-01' },
      a.token,
    );
    expect(add.code).toBe('400003');
    // A's quick reply list holds nothing of B's.
    expect((await t.call('/v1/seat/chat/quickReplyList', {}, a.token)).data.list).toEqual([]);

    expect(await bState()).toEqual(before);
    // B still sees everything of its own.
    const bList = await t.call('/v1/seat/chat/getGroupList', {}, b.token);
    expect(bList.data.un_read_count).toBe(4);
    expect((await t.call('/v1/seat/chat/getChatRecord', ref, b.token)).data.list).toHaveLength(5);
  });

  it('a repeated client_msg_id of another seat is a different message', async () => {
    const aChat = await createChat(t.db, a);
    const id = 'shared-client-id';
    const fromB = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: bChat.sendPhone,
        receiver_phone: bChat.receiverPhone,
        content: 'from B',
        client_msg_id: id,
      },
      b.token,
    );
    const fromA = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: aChat.sendPhone,
        receiver_phone: aChat.receiverPhone,
        content: 'from A',
        client_msg_id: id,
      },
      a.token,
    );
    expect(fromA.code).toBe('000000');
    expect(fromA.data.msg_id).not.toBe(fromB.data.msg_id);
    expect(fromA.data.content).toBe('from A');
  });
});
