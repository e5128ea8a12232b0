import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRequest } from '@parley/protocol';
import { AppError } from '../src/lib/app-error.js';
import { BatchWriter } from '../src/modules/messages/batch-writer.js';
import { GroupCommitWriter } from '../src/modules/messages/group-commit-writer.js';
import type { MessageWriter, MessageWriterParts } from '../src/modules/messages/message-writer.js';
import { createChat, createSeat, type ChatFixture } from './fixtures.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';
import { uploaded } from './media-helpers.js';
import { platformAt, SECRET } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';

/**
 * The contract of MessageWriter: each implementation (GroupCommitWriter, SQLite's; BatchWriter,
 * PostgreSQL's) takes the same sends to the same rows, events and outbox entries. Each writer
 * runs the same script on a seat of its own; what it leaves is normalised (ids become the
 * names the script gives them, times are dropped) and must equal one literal expectation, on
 * either database. On PostgreSQL both writers run (GroupCommitWriter commits each send in a
 * transaction of its own there).
 */
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  t = await createTestApp({ platform: platformAt(receiver.url) });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const WRITERS: Record<string, (parts: MessageWriterParts) => MessageWriter> = {
  GroupCommitWriter: (parts) => new GroupCommitWriter(t.db, parts),
  ...(usingPg ? { BatchWriter: (parts: MessageWriterParts) => new BatchWriter(t.db, parts) } : {}),
};

type Send = CallRequest<'/v1/seat/chat/message'>;
type Answer = string;

/** The script every writer runs; answers are named, never ids. */
async function script(writer: MessageWriter, name: string) {
  const seat = await createSeat(t, `writer-${name}`);
  const other = await createSeat(t, `writer-${name}-other`);
  const chats: Record<string, ChatFixture> = {
    a: await createChat(t.db, seat),
    b: await createChat(t.db, seat),
    c: await createChat(t.db, seat),
    d: await createChat(t.db, seat),
    blocked: await createChat(t.db, seat, { groupId: seat.groups.blocked }),
  };
  const foreign = await createChat(t.db, other);
  const photo = await uploaded(t, seat.token, 'image', 'photo.jpg');
  const othersPhoto = await uploaded(t, other.token, 'image', 'photo.jpg');
  const [{ last_seq: before } = { last_seq: 0 }] = await t.db
    .selectFrom('event_counters')
    .select('last_seq')
    .where('seat_id', '=', seat.seatId)
    .execute();
  const sent = new Map<number, string>();
  const send = async (chat: Pick<ChatFixture, 'sendPhone' | 'receiverPhone'>, s: Partial<Send>) => {
    const input = {
      send_phone: chat.sendPhone,
      receiver_phone: chat.receiverPhone,
      type: 'text',
      content: 'hello',
      ...s,
    } as Send;
    try {
      const row = await writer.send(seat.seatId, input);
      // A replay answers the message first stored under its id.
      const first = sent.get(row.id);
      if (first) return `${input.client_msg_id}: replay of ${first}`;
      sent.set(row.id, input.client_msg_id);
      return `${input.client_msg_id}: stored`;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return `${input.client_msg_id}: ${err.code}`;
    }
  };
  const answers: Answer[] = [];
  // One by one: a send, its replay, the refusals, a Telegram link (moves the chat).
  answers.push(await send(chats.a!, { client_msg_id: 'one', content: 'first' }));
  answers.push(await send(chats.a!, { client_msg_id: 'one', content: 'replayed' }));
  answers.push(await send(foreign, { client_msg_id: 'foreign-account' }));
  answers.push(
    await send(
      { sendPhone: chats.a!.sendPhone, receiverPhone: '+4400000000' },
      {
        client_msg_id: 'no-chat',
      },
    ),
  );
  answers.push(await send(chats.blocked!, { client_msg_id: 'blocked' }));
  answers.push(await send(chats.b!, { client_msg_id: 'image-without-media', type: 'image' }));
  answers.push(
    await send(chats.b!, {
      client_msg_id: 'foreign-media',
      type: 'image',
      media_id: othersPhoto.media_id,
    }),
  );
  answers.push(
    await send(chats.d!, {
      client_msg_id: 'image',
      type: 'image',
      media_id: photo.media_id,
      content: 'a caption',
    }),
  );
  answers.push(
    await send(chats.b!, {
      client_msg_id: 'link',
      content: 'join us at https://t.me/parley_bot',
      original_content: 'rejoignez-nous',
    }),
  );
  // A reply quotes a message of its chat; another chat's message is refused.
  const idOf = (name: string) => [...sent].find(([, n]) => n === name)![0];
  answers.push(
    await send(chats.a!, { client_msg_id: 'reply', content: 'about that', reply_to: idOf('one') }),
  );
  answers.push(await send(chats.a!, { client_msg_id: 'reply-elsewhere', reply_to: idOf('image') }));
  // Together (one batch where the writer batches): one bad send among good ones, a replay.
  answers.push(
    ...(await Promise.all([
      send(chats.c!, { client_msg_id: 'batch-c', content: 'to c' }),
      send(chats.blocked!, { client_msg_id: 'batch-blocked' }),
      send(chats.d!, { client_msg_id: 'batch-d', content: 'to d', original_content: 'à d' }),
      send(chats.a!, { client_msg_id: 'one', content: 'replayed in a batch' }),
      send(chats.b!, { client_msg_id: 'batch-b', content: 'to b' }),
      send(chats.a!, { client_msg_id: 'batch-file', type: 'file', media_id: photo.media_id }),
    ])),
  );

  // What the writer left, named.
  const chatName = new Map(Object.entries(chats).map(([n, c]) => [c.sessionId, n]));
  const groupName = new Map(Object.entries(seat.groups).map(([n, id]) => [id, n]));
  const messages = await t.db
    .selectFrom('messages')
    .selectAll()
    .where('seat_id', '=', seat.seatId)
    .where('direction', '=', 'out')
    .orderBy('client_msg_id')
    .execute();
  const msgName = new Map(messages.map((m) => [m.id, m.client_msg_id]));
  const sessions = await t.db
    .selectFrom('sessions')
    .selectAll()
    .where('seat_id', '=', seat.seatId)
    .orderBy('id')
    .execute();
  const events = await t.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('seat_id', '=', seat.seatId)
    .where('seq', '>', Number(before))
    .where('type', '<>', 'message.status')
    .orderBy('seq')
    .execute();
  const outbox = await t.db
    .selectFrom('outbox')
    .select(['msg_id', 'kind'])
    .where('seat_id', '=', seat.seatId)
    .execute();

  /** Ids become names; times, numbers and signed URLs (of each seat) are dropped. */
  const named = (value: unknown, key = ''): unknown => {
    if (Array.isArray(value)) return value.map((v) => named(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          // PostgreSQL's jsonb orders keys its own way: sorted, they compare.
          .sort(([x], [y]) => x.localeCompare(y))
          .filter(([k]) => !/(_time|_at|^at|phone|url|media_id)$/.test(k))
          .map(([k, v]) => [k, named(v, k)]),
      );
    }
    if (typeof value !== 'number') return value;
    if (key === 'session_id') return chatName.get(value) ?? `other chat`;
    if (key === 'group_id') return groupName.get(value) ?? `group ${value}`;
    if (key === 'msg_id' || key === 'reply_to') return msgName.get(value) ?? `other message`;
    return value;
  };
  return {
    answers,
    messages: messages.map((m) =>
      named({
        client_msg_id: m.client_msg_id,
        session_id: m.session_id,
        type: m.type,
        content: m.content,
        original_content: m.original_content,
        media: m.media && (JSON.parse(m.media) as unknown),
        reply_to: m.reply_to_id,
        reply_quote: m.reply_quote && (JSON.parse(m.reply_quote) as unknown),
      }),
    ),
    chats: sessions.map((s) =>
      named({
        session_id: s.id,
        group_id: s.group_id,
        last_direction: s.last_direction,
        last_type: s.last_type,
        last_preview: s.last_preview,
        blocked: s.blocked,
      }),
    ),
    // A batch's events are numbered in its own order: compared as a set.
    events: events
      .map((e) => named({ type: e.type, data: JSON.parse(e.data) as unknown }))
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    outbox: outbox
      .map((o) => named({ msg_id: o.msg_id, kind: o.kind }) as { msg_id: string })
      .sort((x, y) => x.msg_id.localeCompare(y.msg_id)),
  };
}

describe.each(Object.keys(WRITERS))('MessageWriter contract: %s', (name) => {
  it('answers, stores, records and queues the script as every writer does', async () => {
    const writer = WRITERS[name]!({
      media: t.services.media,
      events: t.services.events,
      outbox: t.services.outbox,
    });
    const left = await script(writer, name);
    expect(left).toEqual(EXPECTED);
  }, 60_000);
});

/** The photo as a message's media shows it (its URLs dropped). */
const PHOTO = {
  duration_ms: null,
  file_name: 'photo.jpg',
  height: 600,
  mime: 'image/jpeg',
  size: 6535,
  width: 800,
};

/** A chat of the script as an event shows it: everything but its group and last message. */
const chatItem = (chat: string, group: string, last: { type: string; preview: string }) => ({
  blocked: false,
  // The script's accounts are on a channel with no reply window.
  can_reply: true,
  customer_language: 'ES',
  customer_name: null,
  group_id: group,
  is_top: false,
  last_message: { direction: 'out', ...last },
  remark: '',
  reply_until: null,
  session_id: chat,
  un_read_count: 0,
  user_time_type: 1,
});

/** An operator's message (`name`: its client_msg_id) stored and as its event shows it. */
function sent(
  name: string,
  chat: string,
  group: string,
  m: {
    type?: string;
    content?: string;
    original_content?: string;
    media?: object;
    reply?: { to: string; preview: string };
  } = {},
) {
  const type = m.type ?? 'text';
  const content = m.content ?? 'hello';
  const preview = m.media && type === 'file' ? 'photo.jpg' : content;
  const fields = { type, content, original_content: m.original_content ?? null };
  const quote = m.reply && { direction: 'out', preview: m.reply.preview, type: 'text' };
  return {
    row: {
      client_msg_id: name,
      session_id: chat,
      ...fields,
      media: m.media ?? null,
      reply_to: m.reply?.to ?? null,
      reply_quote: quote ?? null,
    },
    event: {
      type: 'message.created',
      data: {
        message: {
          client_msg_id: name,
          msg_id: name,
          session_id: chat,
          ...fields,
          media: m.media ? PHOTO : null,
          deleted: false,
          direction: 'out',
          status: 'sent',
          fail_reason: null,
          reply_to: m.reply?.to ?? null,
          quote: m.reply ? { ...quote, msg_id: m.reply.to, deleted: false } : null,
          reaction: null,
        },
        session: chatItem(chat, group, { type, preview }),
      },
    },
  };
}

const STORED_PHOTO = { ...PHOTO, has_thumb: true, kind: 'image' };
const LINK = 'join us at https://t.me/parley_bot';
/** Every message the script stores, in client_msg_id order. */
const SENT = [
  sent('batch-b', 'b', 'tg_link_pushed', { content: 'to b' }),
  sent('batch-c', 'c', 'ungrouped', { content: 'to c' }),
  sent('batch-d', 'd', 'ungrouped', { content: 'to d', original_content: 'à d' }),
  sent('batch-file', 'a', 'ungrouped', { type: 'file', media: STORED_PHOTO }),
  sent('image', 'd', 'ungrouped', { type: 'image', content: 'a caption', media: STORED_PHOTO }),
  sent('link', 'b', 'tg_link_pushed', { content: LINK, original_content: 'rejoignez-nous' }),
  sent('one', 'a', 'ungrouped', { content: 'first' }),
  sent('reply', 'a', 'ungrouped', {
    content: 'about that',
    reply: { to: 'one', preview: 'first' },
  }),
];
const groupItem = (type: string, name: string, chats: number) => ({
  disabled: type === 'blocked',
  group_id: type,
  group_name: name,
  group_type: type,
  un_read: 0,
  total_recent: chats,
  total_earlier: 0,
});
const chatRow = (chat: string, group: string, preview: string, last_type = 'text') => ({
  blocked: chat === 'blocked' ? 1 : 0,
  group_id: group,
  last_direction: chat === 'blocked' ? 'in' : 'out',
  last_preview: preview,
  last_type,
  session_id: chat,
});

/** What every writer leaves after the script (see `named`: ids are the script's names). */
const EXPECTED = {
  answers: [
    'one: stored',
    'one: replay of one',
    'foreign-account: 400003',
    'no-chat: 400001',
    'blocked: 400003',
    'image-without-media: 100001',
    'foreign-media: 400001',
    'image: stored',
    'link: stored',
    'reply: stored',
    'reply-elsewhere: 100001',
    'batch-c: stored',
    'batch-blocked: 400003',
    'batch-d: stored',
    'one: replay of one',
    'batch-b: stored',
    'batch-file: stored',
  ],
  messages: SENT.map((s) => s.row),
  chats: [
    chatRow('a', 'ungrouped', 'photo.jpg', 'file'),
    chatRow('b', 'tg_link_pushed', 'to b'),
    chatRow('c', 'ungrouped', 'to c'),
    chatRow('d', 'ungrouped', 'to d'),
    chatRow('blocked', 'blocked', 'hello 1'),
  ],
  events: [
    {
      type: 'groups.changed',
      data: {
        group_list: [
          groupItem('ungrouped', 'Ungrouped', 3),
          groupItem('tg_link_pushed', 'TG link pushed', 1),
          groupItem('blocked', 'Blocked', 1),
        ],
        seat_one_seat_msg_count: 0,
        seat_two_seat_msg_count: 0,
        un_read_count: 0,
      },
    },
    ...SENT.map((s) => s.event),
    {
      type: 'session.updated',
      // session.updated always carries the chat's labels (none here).
      data: {
        session: {
          ...chatItem('b', 'tg_link_pushed', { type: 'text', preview: LINK }),
          labels: [],
        },
      },
    },
  ],
  outbox: SENT.map((s) => ({ kind: 'message', msg_id: s.row.client_msg_id })),
};
