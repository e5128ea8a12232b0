import fc from 'fast-check';
import {
  ID_MAX,
  PLATFORM_PATHS,
  SUCCESS_CODE,
  UPLOAD_PATH,
  messageType,
  type CallPath,
} from '@parley/protocol';
import { createChat, createGroup, PASSWORD, type SeatFixture } from './fixtures.js';
import type { FieldArbitraries, Payload } from './fuzz-arbitraries.js';
import type { Answer, TestApp } from './helper.js';
import { corpus, multipart, type Part } from './media-helpers.js';
import { platformPost } from './platform-helpers.js';

// The fuzz test's world (fuzz-calls.test.ts): what each of two seats holds, the field
// arbitraries that name it (mostly the caller's, sometimes the other seat's, sometimes
// nothing's), and what counts as reaching the other seat's data.

/** What a seat holds: every kind of id a call can name. */
export interface Holdings {
  seat: SeatFixture;
  sessions: number[];
  groups: number[];
  messages: number[];
  quickReplies: number[];
  media: string[];
  batches: string[];
  /** The operator's messages (receipts name them). */
  outMessages: number[];
  clientMsgIds: string[];
  phones: string[];
  customers: string[];
  /** Account and customer of each chat, as calls name a chat. */
  chats: { send_phone: string; receiver_phone: string }[];
  cursors: string[];
  /** Platform ids of customers' messages taken (deletions name them). */
  platformIds: string[];
}

async function ok<T>(answer: Promise<Answer<T>>): Promise<T> {
  const res = await answer;
  if (res.code !== SUCCESS_CODE) throw new Error(res.raw);
  return res.data;
}

type ChatHoldings = Pick<
  Holdings,
  'sessions' | 'groups' | 'messages' | 'outMessages' | 'clientMsgIds' | 'customers' | 'chats'
>;

/** Fresh chats (pinned, blocked, in a custom group), an operator message, and their ids. */
export async function chatsOf(t: TestApp, seat: SeatFixture, tag: string): Promise<ChatHoldings> {
  const custom = await createGroup(t, seat, `${tag} group`);
  const chats = [
    await createChat(t.db, seat, { inbound: 3, unread: 2 }),
    await createChat(t.db, seat, { isTop: true, remark: 'vip' }),
    await createChat(t.db, seat, { groupId: seat.groups.blocked }),
    await createChat(t.db, seat, { groupId: custom, sendPhone: seat.phones.at(-1) }),
  ];
  const clientMsgId = `${tag}-out-1`;
  const out = await ok(
    t.call(
      '/v1/seat/chat/message',
      {
        send_phone: chats[0]!.sendPhone,
        receiver_phone: chats[0]!.receiverPhone,
        content: 'hello again',
        client_msg_id: clientMsgId,
      },
      seat.token,
    ),
  );
  const messages = await t.db
    .selectFrom('messages')
    .select('id')
    .where(
      'session_id',
      'in',
      chats.map((c) => c.sessionId),
    )
    .execute();
  return {
    sessions: chats.map((c) => c.sessionId),
    groups: [custom, ...Object.values(seat.groups)],
    messages: messages.map((m) => m.id),
    outMessages: [out.msg_id],
    clientMsgIds: [clientMsgId],
    customers: chats.map((c) => c.receiverPhone),
    chats: chats.map((c) => ({ send_phone: c.sendPhone, receiver_phone: c.receiverPhone })),
  };
}

/** Media, quick replies, a batch and paging cursors of a seat, kept for the whole file. */
export async function holdingsOf(t: TestApp, seat: SeatFixture, tag: string): Promise<Holdings> {
  const chats = await chatsOf(t, seat, tag);
  const image = await ok(
    uploadForm(t, seat.token, [
      { name: 'kind', value: 'image' },
      { name: 'file', filename: 'photo.jpg', content: corpus('photo.jpg') },
    ]),
  );
  const audio = await ok(
    uploadForm(t, seat.token, [
      { name: 'kind', value: 'audio' },
      { name: 'file', filename: 'tone.mp3', content: corpus('tone.mp3') },
    ]),
  );
  const platformId = `${tag}-platform-1`;
  const inbound = await platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({
      id: platformId,
      account: seat.phones[0],
      customer: chats.customers[0],
      type: 'text',
      content: 'from the platform',
    }),
  );
  if (inbound.code !== SUCCESS_CODE) throw new Error(inbound.raw);
  const text = await ok(
    t.call(
      '/v1/seat/chat/quickReplyDoType',
      { type: 'add', kind: 'text', name: `${tag} hi`, content: 'Hello!' },
      seat.token,
    ),
  );
  const batchId = `${tag}-batch-1`;
  await ok(
    t.call(
      '/v1/seat/chat/batch_message',
      { batch_id: batchId, session_ids: chats.sessions.slice(0, 2), content: 'news' },
      seat.token,
    ),
  );
  const page = await ok(
    t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: seat.groups.ungrouped, page_size: 1 },
      seat.token,
    ),
  );
  const book = await ok(t.call('/v1/seat/chat/addressBook', { page_size: 1 }, seat.token));
  const found = await ok(
    t.call('/v1/seat/chat/searchMessage', { keyword: 'hello 1', page_size: 1 }, seat.token),
  );
  return {
    seat,
    ...chats,
    quickReplies: [text.id],
    media: [image.media_id, audio.media_id],
    batches: [batchId],
    phones: seat.phones,
    platformIds: [platformId],
    cursors: [page.next_cursor, book.next_cursor, found.next_cursor].filter(
      (c): c is string => c !== null,
    ),
  };
}

/** Mostly the caller's own values, sometimes the other seat's, sometimes unknown ones. */
export function mineOrNot<T>(mine: T[], theirs: T[], unknown: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...mine), weight: 4 },
    { arbitrary: fc.constantFrom(...theirs), weight: 1 },
    { arbitrary: unknown, weight: 1 },
  );
}

export const anyId = fc.integer({ min: 1, max: ID_MAX });
export const anyPhone = fc.stringMatching(/^\+?[0-9]{5,20}$/);
const freshClientId = fc.stringMatching(/^[A-Za-z0-9_-]{8,24}$/);

/** Field arbitraries of the seat calls: real ids of both seats, so requests reach the data. */
export function seatFields(path: CallPath, mine: Holdings, theirs: Holdings): FieldArbitraries {
  const session = mineOrNot(mine.sessions, theirs.sessions, anyId);
  const group = mineOrNot(mine.groups, theirs.groups, anyId);
  const message = mineOrNot(mine.messages, theirs.messages, anyId);
  return {
    session_id: session,
    session_ids: fc.uniqueArray(session, { maxLength: 4 }),
    group_id: group,
    group_ids: fc.uniqueArray(group, { maxLength: 3 }),
    msg_id: message,
    before_id: message,
    after_id: message,
    around_id: message,
    id: mineOrNot(mine.quickReplies, theirs.quickReplies, anyId),
    media_id: mineOrNot(mine.media, theirs.media, fc.string({ maxLength: 128 })),
    // Mostly new ids; sometimes one in use (a replay, or the same id for another message).
    batch_id: fc.oneof(
      { arbitrary: freshClientId, weight: 3 },
      { arbitrary: fc.constantFrom(...mine.batches, ...theirs.batches), weight: 1 },
    ),
    client_msg_id: fc.oneof(
      { arbitrary: freshClientId, weight: 3 },
      { arbitrary: fc.constantFrom(...mine.clientMsgIds, ...theirs.clientMsgIds), weight: 1 },
    ),
    send_phone: mineOrNot(mine.phones, theirs.phones, anyPhone),
    receiver_phone: mineOrNot(mine.customers, theirs.customers, anyPhone),
    cursor: mineOrNot(
      mine.cursors,
      theirs.cursors,
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? '').toString('base64url')),
    ),
    account: fc.oneof(
      fc.constantFrom(mine.seat.account, theirs.seat.account),
      fc.string({ maxLength: 64 }),
    ),
    password: fc.oneof(fc.constant(PASSWORD), fc.string({ maxLength: 64 })),
    token: fc.oneof(
      fc.constantFrom(mine.seat.token, theirs.seat.token),
      fc.string({ maxLength: 80 }),
    ),
    // Words of the stored messages (search), of remarks and numbers (the chat filters).
    keyword: fc.oneof(
      fc.constantFrom('hello 1', 'hello again', 'from the platform', 'vip', '+4477', '1555'),
      fc.string({ minLength: 6 }),
      fc.string(),
    ),
    // `type` is a message type here; elsewhere (doGroup, quickReplyDoType) an action.
    ...(path === '/v1/seat/chat/message' || path === '/v1/seat/chat/batch_message'
      ? {
          type: fc.oneof(
            { arbitrary: fc.constant('text'), weight: 3 },
            fc.constantFrom(...messageType.options),
          ),
        }
      : {}),
  };
}

/** A chat's account and customer, as the calls that name a chat by its numbers take them. */
export function chatPairs(mine: Holdings, theirs: Holdings) {
  const unknown = fc.record({ send_phone: anyPhone, receiver_phone: anyPhone });
  return mineOrNot(mine.chats, theirs.chats, unknown);
}

/**
 * Fields of a request that name the other seat's data (its ids, its accounts). A media_id
 * names media only for a type that takes one: a text message ignores it.
 */
export function namesTheirs(
  path: CallPath,
  payload: Payload,
  theirs: Holdings,
  mine: Holdings,
): string[] {
  if (!('json' in payload) || typeof payload.json !== 'object' || payload.json === null) return [];
  const body = payload.json as Record<string, unknown>;
  const only = <T>(list: T[], own: T[]) => list.filter((v) => !own.includes(v));
  const type = path === '/v1/seat/chat/quickReplyDoType' ? body.kind : (body.type ?? 'text');
  const takesMedia = typeof type === 'string' && type !== 'text';
  const refs: Record<string, unknown[]> = {
    session_id: only(theirs.sessions, mine.sessions),
    session_ids: only(theirs.sessions, mine.sessions),
    group_id: only(theirs.groups, mine.groups),
    group_ids: only(theirs.groups, mine.groups),
    msg_id: theirs.messages,
    around_id: theirs.messages,
    send_phone: theirs.phones,
    ...(takesMedia ? { media_id: theirs.media } : {}),
    ...(path === '/v1/seat/chat/quickReplyDoType' ? { id: theirs.quickReplies } : {}),
  };
  return Object.entries(refs).flatMap(([key, values]) => {
    const value = body[key];
    const given = key.endsWith('_ids') && Array.isArray(value) ? value : [value];
    return given.some((v) => values.includes(v)) ? [key] : [];
  });
}

/** Keys of an answer whose value is one of the other seat's ids: a leak. */
export function leaks(data: unknown, theirs: Holdings): string[] {
  const found: string[] = [];
  const owned: Record<string, unknown[]> = {
    session_id: theirs.sessions,
    msg_id: theirs.messages,
    group_id: theirs.groups,
    media_id: theirs.media,
    send_phone: theirs.phones,
  };
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    for (const [key, child] of Object.entries(v)) {
      if (owned[key]?.includes(child)) found.push(`${key}=${String(child)}`);
      walk(child);
    }
  };
  walk(data);
  return found;
}

export function uploadForm(t: TestApp, token: string | null, parts: Part[]) {
  const { payload, contentType } = multipart(parts);
  return t.raw({
    method: 'POST',
    url: UPLOAD_PATH,
    payload,
    headers: { 'content-type': contentType, ...(token ? { authorization: token } : {}) },
  }) as Promise<Answer<{ media_id: string }>>;
}
