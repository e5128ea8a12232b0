import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS, type CallPath } from '@parley/protocol';
import {
  createChat,
  createSeat,
  nextPhone,
  type ChatFixture,
  type SeatFixture,
} from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { platformPost } from './platform-helpers.js';

// Values no database (or browser) can hold, sent where a client or the platform controls a
// field: each gets 100001 naming the field, never a 500, and changes nothing. Both databases
// run this file (PostgreSQL refuses NUL in text and ids past its `integer`).

const NUL = 'a\u0000b';
const BIG_ID = 2_147_483_648;

let t: TestApp;
let seat: SeatFixture;
let chat: ChatFixture;

beforeAll(async () => {
  t = await createTestApp();
  seat = await createSeat(t, 'hostile-values');
  chat = await createChat(t.db, seat, { inbound: 2 });
});
afterAll(async () => t?.close());

async function snapshot() {
  const count = async (table: 'messages' | 'sessions' | 'seat_groups' | 'quick_replies') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const remark = await t.call(
    '/v1/seat/chat/get_remark',
    { session_id: chat.sessionId },
    seat.token,
  );
  return {
    messages: await count('messages'),
    sessions: await count('sessions'),
    groups: await count('seat_groups'),
    quickReplies: await count('quick_replies'),
    remark: remark.data,
  };
}

describe('NUL characters', () => {
  const withNul: [CallPath, Record<string, unknown>, string][] = [
    ['/v1/seat/chat/login', { account: NUL, password: 'x' }, 'account'],
    ['/v1/seat/chat/doGroup', { type: 'add', group_name: NUL }, 'group_name'],
    ['/v1/seat/chat/set_remark', { session_id: 0, remark: NUL }, 'remark'],
    ['/v1/seat/chat/searchMessage', { keyword: `hello ${NUL} world` }, 'keyword'],
    ['/v1/seat/chat/getGroupInfo', { group_id: 1, keyword: NUL }, 'keyword'],
    [
      '/v1/seat/chat/quickReplyDoType',
      { type: 'add', kind: 'text', name: 'n', content: NUL },
      'content',
    ],
  ];

  it('in any text field of a call: 100001 naming it, nothing changed', async () => {
    const before = await snapshot();
    const calls: [CallPath, Record<string, unknown>, string][] = [
      ...withNul.map(([p, body, field]): [CallPath, Record<string, unknown>, string] => [
        p,
        'session_id' in body ? { ...body, session_id: chat.sessionId } : body,
        field,
      ]),
      [
        '/v1/seat/chat/message',
        {
          send_phone: chat.sendPhone,
          receiver_phone: chat.receiverPhone,
          content: NUL,
          client_msg_id: 'nul-message-1',
        },
        'content',
      ],
      [
        '/v1/seat/chat/addSession',
        {
          send_phone: seat.phones[0],
          receiver_phone: nextPhone('+4479'),
          greeting: NUL,
          client_msg_id: 'nul-greeting-1',
        },
        'greeting',
      ],
    ];
    for (const [path, body, field] of calls) {
      const answer = await t.call(path, body, seat.token);
      expect(answer.code, path).toBe('100001');
      expect(answer.msg, path).toContain(field);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('in a webhook: refused as a bad request (the platform does not retry it), nothing stored', async () => {
    const before = await snapshot();
    for (const body of [
      { id: `nul-${Date.now()}`, content: NUL },
      { id: `id-with-${NUL}`, content: 'hello' },
    ]) {
      const res = await platformPost(
        t,
        PLATFORM_PATHS.message,
        JSON.stringify({
          account: seat.phones[0],
          customer: nextPhone('+4478'),
          type: 'text',
          ...body,
        }),
      );
      expect(res.code).toBe('100001');
      expect(res.status).toBeLessThan(500);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('numbers past what the databases and browsers hold', () => {
  it('an id past 2^31-1 is 100001 on every call that takes one, not a database error', async () => {
    const before = await snapshot();
    const calls: [CallPath, Record<string, unknown>][] = [
      ['/v1/seat/chat/getGroupInfo', { group_id: BIG_ID }],
      ['/v1/seat/chat/moveSessionGroup', { session_id: BIG_ID, group_id: seat.groups.ungrouped }],
      ['/v1/seat/chat/sessionDoTop', { session_id: BIG_ID, is_top: true }],
      ['/v1/seat/chat/set_remark', { session_id: BIG_ID, remark: 'x' }],
      ['/v1/seat/chat/get_remark', { session_id: BIG_ID }],
      ['/v1/seat/chat/del_message', { msg_id: BIG_ID, scope: 'me' }],
      ['/v1/seat/chat/doGroup', { type: 'del', group_id: BIG_ID }],
      [
        '/v1/seat/chat/getChatRecord',
        { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone, before_id: BIG_ID },
      ],
    ];
    const cursor = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
    calls.push(
      [
        '/v1/seat/chat/getGroupInfo',
        { group_id: seat.groups.ungrouped, cursor: cursor([0, Date.now(), BIG_ID]) },
      ],
      ['/v1/seat/chat/searchMessage', { keyword: 'hello world', cursor: cursor([BIG_ID]) }],
      ['/v1/seat/chat/addressBook', { cursor: cursor(['+15550100', BIG_ID]) }],
    );
    for (const [path, body] of calls) {
      const answer = await t.call(path, body, seat.token);
      expect(answer.code, path).toBe('100001');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a webhook sent_at past year 9999 is refused, so no console shows an invalid date', async () => {
    const before = await snapshot();
    const res = await platformPost(
      t,
      PLATFORM_PATHS.message,
      JSON.stringify({
        id: `far-future-${Date.now()}`,
        account: seat.phones[0],
        customer: nextPhone('+4478'),
        type: 'text',
        content: 'from the future',
        sent_at: Number.MAX_SAFE_INTEGER,
      }),
    );
    expect(res.code).toBe('100001');
    expect(res.msg).toContain('sent_at');
    expect(await snapshot()).toEqual(before);
  });
});
