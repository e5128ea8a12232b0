import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/app-error.js';
import { ParleyMetrics } from '../src/metrics/metrics.js';
import { BatchInboundWriter } from '../src/modules/messages/batch-inbound-writer.js';
import { GroupCommitInboundWriter } from '../src/modules/messages/group-commit-inbound-writer.js';
import type {
  InboundLog,
  InboundMessage,
  InboundWriter,
} from '../src/modules/messages/inbound-writer.js';
import { createChat, createSeat, nextPhone } from './fixtures.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';
import { uploaded } from './media-helpers.js';

/**
 * The contract of InboundWriter, as test/message-writers.test.ts is MessageWriter's: each
 * implementation (GroupCommitInboundWriter, SQLite's; BatchInboundWriter, PostgreSQL's) takes
 * the same customers' messages to the same answers, rows, events, log lines and counts. Each
 * runs the same script on a seat of its own; what it leaves is normalised (ids become names,
 * times are dropped) and must equal the literal expectations, and on PostgreSQL, where both
 * run, each other's whole.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Parts = [TestApp['services']['media'], TestApp['services']['events'], InboundLog];
const WRITERS: Record<string, (...p: Parts) => InboundWriter> = {
  GroupCommitInboundWriter: (...p) => new GroupCommitInboundWriter(t.db, ...p),
  ...(usingPg ? { BatchInboundWriter: (...p: Parts) => new BatchInboundWriter(t.db, ...p) } : {}),
};

async function script(name: string, make: (...p: Parts) => InboundWriter) {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  const metrics = new ParleyMetrics();
  const writer = make(t.services.media, t.services.events, {
    warn: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }),
  });
  writer.observe(metrics);
  const seat = await createSeat(t, `inw-${name}`);
  const other = await createSeat(t, `inw-${name}-o`);
  const blocked = await createChat(t.db, seat, { groupId: seat.groups.blocked, unread: 0 });
  const photo = await uploaded(t, seat.token, 'image', 'photo.jpg');
  const othersPhoto = await uploaded(t, other.token, 'image', 'photo.jpg');
  const [{ last_seq: before } = { last_seq: 0 }] = await t.db
    .selectFrom('event_counters')
    .select('last_seq')
    .where('seat_id', '=', seat.seatId)
    .execute();
  const customers = {
    ana: nextPhone('+4478'),
    bea: nextPhone('+4478'),
    blocked: blocked.receiverPhone,
  };
  const phoneName = new Map(Object.entries(customers).map(([n, p]) => [p, n]));
  const sendPhone = seat.phones[0]!;
  let at = Date.now() - 60_000;
  const msg = (
    id: string,
    to: keyof typeof customers,
    m: Partial<InboundMessage> = {},
  ): InboundMessage => ({
    channel: 'platform',
    seatId: seat.seatId,
    key: { channel: 'platform', sendPhone, externalId: id },
    sendPhone,
    receiverPhone: customers[to],
    type: 'text',
    content: `${id} text`,
    at: ++at,
    ...m,
  });
  const answer = async (id: string, m: InboundMessage) => {
    try {
      const o = await writer.write(m);
      return `${id}: ${o.kind}${o.kind === 'refused' ? ` ${o.reason}` : ''}${o.kind === 'stored' && o.chatCreated ? ' (new chat)' : ''}`;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return `${id}: ${err.code}`;
    }
  };
  const answers: string[] = [];
  // A new customer, one by one: the chat opens in Ungrouped, unread counts up.
  answers.push(await answer('a1', msg('a1', 'ana', { customerName: 'Ana' })));
  answers.push(await answer('a2', msg('a2', 'ana')));
  // A replayed message id: taken once.
  answers.push(await answer('a1-again', msg('a1', 'ana', { content: 'replayed' })));
  // A blocked chat takes nothing; its id is still taken.
  answers.push(await answer('b1', msg('b1', 'blocked')));
  answers.push(await answer('b1-again', msg('b1', 'blocked')));
  // Media: the seat's own photo; another seat's is refused by its own check.
  answers.push(await answer('m1', msg('m1', 'bea', { mediaId: photo.media_id, content: 'look' })));
  answers.push(
    await answer('m2', msg('m2', 'bea', { mediaId: othersPhoto.media_id, content: 'x' })),
  );
  // Together (one batch): bad messages between good ones, a replay among them.
  const batch: [string, InboundMessage][] = [
    ['c1', msg('c1', 'ana')],
    ['c2', msg('c2', 'ana', { content: 'nul\u0000 inside', customerName: 'Ana\u0000 Maria' })],
    ['c3', msg('c3', 'bea', { type: 'sticker' })],
    ['c4', msg('c4', 'bea', { content: '  \u0000 ' })],
    ['c5', msg('c5', 'bea', { content: 'y'.repeat(5000) })],
    ['c6', msg('a2', 'ana')],
    ['c7', msg('c7', 'blocked')],
    ['c8', msg('c8', 'bea')],
  ];
  answers.push(...(await Promise.all(batch.map(([id, m]) => answer(id, m)))));

  const messages = await t.db
    .selectFrom('messages')
    .select(['id', 'session_id', 'type', 'content', 'media_id', 'external_id'])
    .where('seat_id', '=', seat.seatId)
    .where('direction', '=', 'in')
    // The blocked chat's fixture message has none.
    .where('external_id', 'is not', null)
    .orderBy('id')
    .execute();
  const sessions = await t.db
    .selectFrom('sessions')
    .selectAll()
    .where('seat_id', '=', seat.seatId)
    .orderBy('id')
    .execute();
  const chatName = new Map(sessions.map((s) => [s.id, phoneName.get(s.receiver_phone)]));
  const msgName = new Map(messages.map((m) => [m.id, m.external_id]));
  const groupName = new Map(Object.entries(seat.groups).map(([n, id]) => [id, n]));
  const events = await t.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('seat_id', '=', seat.seatId)
    .where('seq', '>', Number(before))
    .orderBy('seq')
    .execute();
  const taken = await t.db
    .selectFrom('inbound_messages')
    .select(['external_id', 'msg_id'])
    .where('send_phone', '=', sendPhone)
    .orderBy('external_id')
    .execute();
  const named = (value: unknown, key = ''): unknown => {
    if (Array.isArray(value)) return value.map((v) => named(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .sort(([x], [y]) => x.localeCompare(y))
          .filter(([k]) => !/(_time|_at|^at|phone|url|media_id|width|height|size)$/.test(k))
          .map(([k, v]) => [k, named(v, k)]),
      );
    }
    if (typeof value !== 'number') return value;
    if (key === 'session_id') return chatName.get(value) ?? 'other chat';
    if (key === 'group_id') return groupName.get(value) ?? 'custom';
    if (key === 'msg_id') return msgName.get(value) ?? 'other message';
    return value;
  };
  const counts = (await metrics.registry.getMetricsAsJSON())
    .filter((m) => m.name.startsWith('parley_inbound_'))
    .flatMap((m) =>
      m.values.map((v) => `${m.name} ${v.labels.channel} ${v.labels.reason} ${v.value}`),
    )
    .sort();
  return {
    answers,
    messages: messages.map(
      (m) =>
        `${m.external_id} → ${chatName.get(m.session_id)}: ${m.type} ${m.media_id ? 'with media ' : ''}${JSON.stringify(m.content.length > 40 ? `${m.content.slice(0, 10)}… (${m.content.length})` : m.content)}`,
    ),
    chats: sessions.map(
      (s) =>
        `${phoneName.get(s.receiver_phone)}: ${groupName.get(s.group_id)}, unread ${s.un_read_count}, name ${s.customer_name}, last ${s.last_type} ${JSON.stringify(s.last_preview?.slice(0, 12))}`,
    ),
    taken: taken.map((k) => `${k.external_id} ${k.msg_id === null ? 'nothing' : 'stored'}`),
    log: lines.map((l) => `${l.msg}: ${String(l.obj.reason)} ${String(l.obj.id)}`),
    counts,
    /** Sorted: a batch's events are numbered in its own order. */
    events: events
      .map((e) => named({ type: e.type, data: JSON.parse(e.data) as unknown }))
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
  };
}

const EXPECTED = {
  answers: [
    'a1: stored (new chat)',
    'a2: stored',
    'a1-again: taken',
    'b1: blocked',
    'b1-again: taken',
    'm1: stored (new chat)',
    'm2: 400001',
    'c1: stored',
    'c2: stored',
    'c3: refused unknown_type',
    'c4: refused empty',
    'c5: stored',
    'c6: taken',
    'c7: blocked',
    'c8: stored',
  ],
  messages: [
    'a1 → ana: text "a1 text"',
    'a2 → ana: text "a2 text"',
    'm1 → bea: image with media "look"',
    'c1 → ana: text "c1 text"',
    'c2 → ana: text "nul inside"',
    `c5 → bea: text "yyyyyyyyyy… (4096)"`,
    'c8 → bea: text "c8 text"',
  ],
  chats: [
    'blocked: blocked, unread 0, name null, last text "hello 1"',
    'ana: ungrouped, unread 4, name Ana  Maria, last text "nul inside"',
    'bea: ungrouped, unread 3, name null, last text "c8 text"',
  ],
  taken: [
    'a1 stored',
    'a2 stored',
    'b1 nothing',
    'c1 stored',
    'c2 stored',
    'c5 stored',
    'c7 nothing',
    'c8 stored',
    'm1 stored',
  ],
  log: [
    'inbound message refused: invalid m2',
    'inbound message refused: unknown_type c3',
    'inbound message refused: empty c4',
  ],
  counts: [
    'parley_inbound_messages_cleaned_total platform name_cleaned 1',
    'parley_inbound_messages_cleaned_total platform nul_stripped 1',
    'parley_inbound_messages_cleaned_total platform text_cut 1',
    'parley_inbound_messages_refused_total platform empty 1',
    'parley_inbound_messages_refused_total platform invalid 1',
    'parley_inbound_messages_refused_total platform unknown_type 1',
  ],
};

const left: Record<string, Awaited<ReturnType<typeof script>>> = {};

describe.each(Object.keys(WRITERS))('InboundWriter contract: %s', (name) => {
  it('answers, stores, logs and counts the script as every writer does', async () => {
    const got = await script(name, WRITERS[name]!);
    left[name] = got;
    const { events, ...rest } = got;
    expect(rest).toEqual(EXPECTED);
    // Each stored message pushed once, with the chat as it left it; a new chat first.
    const types = events.map((e) => (e as { type: string }).type);
    expect(types.filter((x) => x === 'message.created')).toHaveLength(7);
    expect(types.filter((x) => x === 'session.created')).toHaveLength(2);
  }, 60_000);
});

describe.runIf(usingPg)('both PostgreSQL writers', () => {
  it('leave the same rows, events, log lines and counts', () => {
    expect(left.BatchInboundWriter).toEqual(left.GroupCommitInboundWriter);
  });
});
