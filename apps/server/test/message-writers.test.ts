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
    if (key === 'msg_id') return msgName.get(value) ?? `other message`;
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
    'batch-c: stored',
    'batch-blocked: 400003',
    'batch-d: stored',
    'one: replay of one',
    'batch-b: stored',
    'batch-file: stored',
  ],
  messages: [
    {
      client_msg_id: 'batch-b',
      content: 'to b',
      media: null,
      original_content: null,
      session_id: 'b',
      type: 'text',
    },
    {
      client_msg_id: 'batch-c',
      content: 'to c',
      media: null,
      original_content: null,
      session_id: 'c',
      type: 'text',
    },
    {
      client_msg_id: 'batch-d',
      content: 'to d',
      media: null,
      original_content: 'à d',
      session_id: 'd',
      type: 'text',
    },
    {
      client_msg_id: 'batch-file',
      content: 'hello',
      media: {
        duration_ms: null,
        file_name: 'photo.jpg',
        has_thumb: true,
        height: 600,
        kind: 'image',
        mime: 'image/jpeg',
        size: 6535,
        width: 800,
      },
      original_content: null,
      session_id: 'a',
      type: 'file',
    },
    {
      client_msg_id: 'image',
      content: 'a caption',
      media: {
        duration_ms: null,
        file_name: 'photo.jpg',
        has_thumb: true,
        height: 600,
        kind: 'image',
        mime: 'image/jpeg',
        size: 6535,
        width: 800,
      },
      original_content: null,
      session_id: 'd',
      type: 'image',
    },
    {
      client_msg_id: 'link',
      content: 'join us at https://t.me/parley_bot',
      media: null,
      original_content: 'rejoignez-nous',
      session_id: 'b',
      type: 'text',
    },
    {
      client_msg_id: 'one',
      content: 'first',
      media: null,
      original_content: null,
      session_id: 'a',
      type: 'text',
    },
  ],
  chats: [
    {
      blocked: 0,
      group_id: 'ungrouped',
      last_direction: 'out',
      last_preview: 'photo.jpg',
      last_type: 'file',
      session_id: 'a',
    },
    {
      blocked: 0,
      group_id: 'tg_link_pushed',
      last_direction: 'out',
      last_preview: 'to b',
      last_type: 'text',
      session_id: 'b',
    },
    {
      blocked: 0,
      group_id: 'ungrouped',
      last_direction: 'out',
      last_preview: 'to c',
      last_type: 'text',
      session_id: 'c',
    },
    {
      blocked: 0,
      group_id: 'ungrouped',
      last_direction: 'out',
      last_preview: 'to d',
      last_type: 'text',
      session_id: 'd',
    },
    {
      blocked: 1,
      group_id: 'blocked',
      last_direction: 'in',
      last_preview: 'hello 1',
      last_type: 'text',
      session_id: 'blocked',
    },
  ],
  events: [
    {
      data: {
        group_list: [
          {
            disabled: false,
            group_id: 'ungrouped',
            group_name: 'Ungrouped',
            group_type: 'ungrouped',
            un_read: 0,
          },
          {
            disabled: false,
            group_id: 'tg_link_pushed',
            group_name: 'TG link pushed',
            group_type: 'tg_link_pushed',
            un_read: 0,
          },
          {
            disabled: true,
            group_id: 'blocked',
            group_name: 'Blocked',
            group_type: 'blocked',
            un_read: 0,
          },
        ],
        seat_one_seat_msg_count: 0,
        seat_two_seat_msg_count: 0,
        un_read_count: 0,
      },
      type: 'groups.changed',
    },
    {
      data: {
        message: {
          client_msg_id: 'batch-b',
          content: 'to b',
          deleted: false,
          direction: 'out',
          media: null,
          msg_id: 'batch-b',
          original_content: null,
          session_id: 'b',
          status: 'sent',
          type: 'text',
        },
        session: {
          blocked: false,
          customer_language: 'ES',
          group_id: 'tg_link_pushed',
          is_top: false,
          last_message: {
            direction: 'out',
            preview: 'to b',
            type: 'text',
          },
          remark: '',
          session_id: 'b',
          un_read_count: 0,
          user_time_type: 1,
        },
      },
      type: 'message.created',
    },
    {
      data: {
        message: {
          client_msg_id: 'batch-c',
          content: 'to c',
          deleted: false,
          direction: 'out',
          media: null,
          msg_id: 'batch-c',
          original_content: null,
          session_id: 'c',
          status: 'sent',
          type: 'text',
        },
        session: {
          blocked: false,
          customer_language: 'ES',
          group_id: 'ungrouped',
          is_top: false,
          last_message: {
            direction: 'out',
            preview: 'to c',
            type: 'text',
          },
          remark: '',
          session_id: 'c',
          un_read_count: 0,
          user_time_type: 1,
        },
      },
      type: 'message.created',
    },
    {
      data: {
        message: {
          client_msg_id: 'batch-d',
          content: 'to d',
          deleted: false,
          direction: 'out',
          media: null,
          msg_id: 'batch-d',
          original_content: 'à d',
          session_id: 'd',
          status: 'sent',
          type: 'text',
        },
        session: {
          blocked: false,
          customer_language: 'ES',
          group_id: 'ungrouped',
          is_top: false,
          last_message: {
            direction: 'out',
            preview: 'to d',
            type: 'text',
          },
          remark: '',
          session_id: 'd',
          un_read_count: 0,
          user_time_type: 1,
        },
      },
      type: 'message.created',
    },
    {
      data: {
        message: {
          client_msg_id: 'batch-file',
          content: 'hello',
          deleted: false,
          direction: 'out',
          media: {
            duration_ms: null,
            file_name: 'photo.jpg',
            height: 600,
            mime: 'image/jpeg',
            size: 6535,
            width: 800,
          },
          msg_id: 'batch-file',
          original_content: null,
          session_id: 'a',
          status: 'sent',
          type: 'file',
        },
        session: {
          blocked: false,
          customer_language: 'ES',
          group_id: 'ungrouped',
          is_top: false,
          last_message: {
            direction: 'out',
            preview: 'photo.jpg',
            type: 'file',
          },
          remark: '',
          session_id: 'a',
          un_read_count: 0,
          user_time_type: 1,
        },
      },
      type: 'message.created',
    },
    {
      data: {
        message: {
          client_msg_id: 'image',
          content: 'a caption',
          deleted: false,
          direction: 'out',
          media: {
            duration_ms: null,
            file_name: 'photo.jpg',
            height: 600,
            mime: 'image/jpeg',
            size: 6535,
            width: 800,
          },
          msg_id: 'image',
          original_content: null,
          session_id: 'd',
          status: 'sent',
          type: 'image',
        },
        session: {
          blocked: false,
          customer_language: 'ES',
          group_id: 'ungrouped',
          is_top: false,
          last_message: {
            direction: 'out',
            preview: 'a caption',
            type: 'image',
          },
          remark: '',
          session_id: 'd',
          un_read_count: 0,
          user_time_type: 1,
        },
      },
      type: 'message.created',
    },
    {
      data: {
        message: {
          client_msg_id: 'link',
          content: 'join us at https://t.me/parley_bot',
          deleted: false,
          direction: 'out',
          media: null,
          msg_id: 'link',
          original_content: 'rejoignez-nous',
          session_id: 'b',
          status: 'sent',
          type: 'text',
        },
        session: {
          blocked: false,
          customer_language: 'ES',
          group_id: 'tg_link_pushed',
          is_top: false,
          last_message: {
            direction: 'out',
            preview: 'join us at https://t.me/parley_bot',
            type: 'text',
          },
          remark: '',
          session_id: 'b',
          un_read_count: 0,
          user_time_type: 1,
        },
      },
      type: 'message.created',
    },
    {
      data: {
        message: {
          client_msg_id: 'one',
          content: 'first',
          deleted: false,
          direction: 'out',
          media: null,
          msg_id: 'one',
          original_content: null,
          session_id: 'a',
          status: 'sent',
          type: 'text',
        },
        session: {
          blocked: false,
          customer_language: 'ES',
          group_id: 'ungrouped',
          is_top: false,
          last_message: {
            direction: 'out',
            preview: 'first',
            type: 'text',
          },
          remark: '',
          session_id: 'a',
          un_read_count: 0,
          user_time_type: 1,
        },
      },
      type: 'message.created',
    },
    {
      data: {
        session: {
          blocked: false,
          customer_language: 'ES',
          group_id: 'tg_link_pushed',
          is_top: false,
          last_message: {
            direction: 'out',
            preview: 'join us at https://t.me/parley_bot',
            type: 'text',
          },
          remark: '',
          session_id: 'b',
          un_read_count: 0,
          user_time_type: 1,
        },
      },
      type: 'session.updated',
    },
  ],
  outbox: [
    {
      kind: 'message',
      msg_id: 'batch-b',
    },
    {
      kind: 'message',
      msg_id: 'batch-c',
    },
    {
      kind: 'message',
      msg_id: 'batch-d',
    },
    {
      kind: 'message',
      msg_id: 'batch-file',
    },
    {
      kind: 'message',
      msg_id: 'image',
    },
    {
      kind: 'message',
      msg_id: 'link',
    },
    {
      kind: 'message',
      msg_id: 'one',
    },
  ],
};
