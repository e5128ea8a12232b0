import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

const SEND = '/v1/seat/chat/message';
const RECORD = '/v1/seat/chat/getChatRecord';
const INFO = '/v1/seat/chat/getGroupInfo';
const DEL = '/v1/seat/chat/del_message';

let t: TestApp;
let seat: SeatFixture;
beforeAll(async () => {
  t = await createTestApp();
  seat = await createSeat(t, 'outgoing-seat');
});
afterAll(async () => t?.close());

describe('a translated outgoing message', () => {
  it('keeps the operator’s words beside what the customer gets, across a reload', async () => {
    const chat = await createChat(t.db, seat);
    const ref = { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone };
    const sent = await t.call(
      SEND,
      {
        ...ref,
        content: 'Hola, ¿en qué puedo ayudarle?',
        original_content: 'Hello, how can I help you?',
        client_msg_id: 'outgoing-tr-0001',
      },
      seat.token,
    );
    expect(sent.code).toBe('000000');
    expect(sent.data).toMatchObject({
      content: 'Hola, ¿en qué puedo ayudarle?',
      original_content: 'Hello, how can I help you?',
    });
    const plain = await t.call(
      SEND,
      { ...ref, content: 'Gracias', client_msg_id: 'outgoing-tr-0002' },
      seat.token,
    );
    expect(plain.data.original_content).toBeNull();

    const record = await t.call(RECORD, ref, seat.token);
    const [mine, other] = record.data.list.slice(-2);
    expect(mine).toMatchObject({
      msg_id: sent.data.msg_id,
      content: 'Hola, ¿en qué puedo ayudarle?',
      original_content: 'Hello, how can I help you?',
    });
    expect(other).toMatchObject({ content: 'Gracias', original_content: null });
    // Customer messages have no original.
    expect(record.data.list[0]).toMatchObject({ direction: 'in', original_content: null });
  });

  it('shows the customer’s text, not the original, as the chat’s last message', async () => {
    const chat = await createChat(t.db, seat);
    await t.call(
      SEND,
      {
        send_phone: chat.sendPhone,
        receiver_phone: chat.receiverPhone,
        content: 'Hasta mañana',
        original_content: 'See you tomorrow',
        client_msg_id: 'outgoing-tr-0003',
      },
      seat.token,
    );
    const list = await t.call(INFO, { group_id: seat.groups.ungrouped }, seat.token);
    const item = list.data.account_list.find((s) => s.session_id === chat.sessionId);
    expect(item?.last_message?.preview).toBe('Hasta mañana');
  });

  it('a retry with the same client_msg_id answers the stored pair; deleting for all wipes both', async () => {
    const chat = await createChat(t.db, seat);
    const body = {
      send_phone: chat.sendPhone,
      receiver_phone: chat.receiverPhone,
      content: 'Buenos días',
      original_content: 'Good morning',
      client_msg_id: 'outgoing-tr-0004',
    };
    const first = await t.call(SEND, body, seat.token);
    const retry = await t.call(SEND, { ...body, original_content: 'changed' }, seat.token);
    expect(retry.data).toEqual(first.data);

    const del = await t.call(DEL, { msg_id: first.data.msg_id, scope: 'all' }, seat.token);
    expect(del.code).toBe('000000');
    const record = await t.call(
      RECORD,
      { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone },
      seat.token,
    );
    const gone = record.data.list.find((m) => m.msg_id === first.data.msg_id);
    expect(gone).toMatchObject({ deleted: true, content: '', original_content: null });
    const stored = await t.db
      .selectFrom('messages')
      .select(['content', 'original_content'])
      .where('id', '=', first.data.msg_id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ content: '', original_content: null });
  });

  it('refuses an original longer than a message may be', async () => {
    const chat = await createChat(t.db, seat);
    const res = await t.call(
      SEND,
      {
        send_phone: chat.sendPhone,
        receiver_phone: chat.receiverPhone,
        content: 'Hola',
        original_content: 'x'.repeat(4097),
        client_msg_id: 'outgoing-tr-0005',
      },
      seat.token,
    );
    expect(res.code).toBe('100001');
    expect(res.msg).toBe('Parameter error: original_content');
  });
});
