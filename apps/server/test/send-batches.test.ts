import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, createSeat, type ChatFixture, type SeatFixture } from './fixtures.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';
import { platformAt, SECRET } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';

/**
 * Sends arriving together share one commit (SQLite: savepoints in one transaction;
 * PostgreSQL: one batch of a few statements). Whatever the batching: every acknowledged
 * message is stored once with the id it was acknowledged with, its event and outbox row carry
 * its own request's id, its seat's events stay numbered without gap, and a send that fails
 * fails alone.
 */
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let seat: SeatFixture;
const chats: ChatFixture[] = [];
beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  t = await createTestApp({ platform: platformAt(receiver.url) });
  seat = await createSeat(t, 'batch-seat');
  for (let i = 0; i < 12; i++) chats.push(await createChat(t.db, seat, { inbound: 1 }));
  // A message the database refuses: stands for any error of one send (a broken row).
  if (usingPg) {
    await sql`create function refuse_poison() returns trigger language plpgsql as $$
      begin
        if new.content = 'poison' then raise exception 'poison refused'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger refuse_poison before insert on messages
      for each row execute function refuse_poison()`.execute(t.db);
  } else {
    await sql`create trigger refuse_poison before insert on messages
      when new.content = 'poison' begin select raise(abort, 'poison refused'); end`.execute(t.db);
  }
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

let n = 0;
async function send(
  chat: Pick<ChatFixture, 'sendPhone' | 'receiverPhone'>,
  content: string,
  clientMsgId = `batch-send-${++n}`,
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/seat/chat/message',
    headers: {
      'content-type': 'application/json',
      authorization: seat.token,
    },
    payload: JSON.stringify({
      send_phone: chat.sendPhone,
      receiver_phone: chat.receiverPhone,
      type: 'text',
      content,
      client_msg_id: clientMsgId,
    }),
  });
  const body = JSON.parse(res.body) as { code: string; data: { msg_id: number } | null };
  // The server's own id of this request (echoed): its rows must carry it.
  const requestId = res.headers['x-request-id'];
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  return { code: body.code, msgId: body.data?.msg_id, clientMsgId, requestId, content };
}

describe('sends committed together', () => {
  it('each acknowledged send is stored once with its own request id; a failing one fails alone', async () => {
    // Three waves of concurrent sends over 12 chats, two to some chats at once, one poisoned.
    const sends: Promise<Awaited<ReturnType<typeof send>>>[] = [];
    for (let wave = 0; wave < 3; wave++) {
      for (let i = 0; i < 16; i++) {
        const poison = wave === 1 && i === 5;
        sends.push(send(chats[i % chats.length]!, poison ? 'poison' : `wave ${wave} send ${i}`));
      }
    }
    const answers = await Promise.all(sends);
    const failed = answers.filter((a) => a.code !== '000000');
    expect(failed.map((a) => a.content)).toEqual(['poison']);
    expect(failed[0]!.code).toBe('500001');

    const acked = answers.filter((a) => a.code === '000000');
    const stored = await sql<{ id: number; client_msg_id: string; content: string }>`
      select id, client_msg_id, content from messages where seat_id = ${seat.seatId}
        and direction = 'out'`.execute(t.db);
    expect(stored.rows.map((r) => Number(r.id)).sort((x, y) => x - y)).toEqual(
      acked.map((a) => a.msgId!).sort((x, y) => x - y),
    );
    const byId = new Map(stored.rows.map((r) => [Number(r.id), r]));
    for (const a of acked) {
      expect(byId.get(a.msgId!)).toMatchObject({
        client_msg_id: a.clientMsgId,
        content: a.content,
      });
    }
    expect(stored.rows.some((r) => r.content === 'poison')).toBe(false);

    // One message.created per acknowledged send, with that request's id.
    const events = await sql<{ seq: number; type: string; data: string; request_id: string }>`
      select seq, type, data, request_id from events where seat_id = ${seat.seatId}
      order by seq`.execute(t.db);
    const created = events.rows.filter((e) => e.type === 'message.created');
    const eventOf = new Map(
      created.map((e) => [
        (JSON.parse(e.data) as { message: { msg_id: number } }).message.msg_id,
        e,
      ]),
    );
    expect(created).toHaveLength(acked.length);
    for (const a of acked) {
      const e = eventOf.get(a.msgId!);
      expect(e?.request_id, a.clientMsgId).toBe(a.requestId);
      const data = JSON.parse(e!.data) as { session: { last_message: unknown } };
      expect(data.session.last_message).not.toBeNull();
    }
    // The seat's events are numbered 1, 2, 3, … without gap or repeat.
    expect(events.rows.map((e) => Number(e.seq))).toEqual(events.rows.map((_, i) => i + 1));

    // One outbox row per acknowledged send, with that request's id.
    const outbox = await sql<{ msg_id: number; request_id: string }>`
      select msg_id, request_id from outbox where seat_id = ${seat.seatId}`.execute(t.db);
    expect(outbox.rows).toHaveLength(acked.length);
    const outboxOf = new Map(outbox.rows.map((r) => [Number(r.msg_id), r.request_id]));
    for (const a of acked) expect(outboxOf.get(a.msgId!)).toBe(a.requestId);

    // Each chat shows its newest message as its preview.
    for (const chat of chats) {
      const [last] = (
        await sql<{ content: string; latest_time: number; last_preview: string }>`
          select m.content, s.latest_time, s.last_preview from sessions s
          join messages m on m.session_id = s.id
          where s.id = ${chat.sessionId} order by m.id desc limit 1`.execute(t.db)
      ).rows;
      expect(last!.last_preview).toBe(last!.content);
    }
  });

  it('refuses and replays sends of a batch as it does a send alone', async () => {
    // Sent together with ordinary sends, so the refusals and replays share their batches.
    const other = await createSeat(t, 'batch-other');
    const blocked = await createChat(t.db, seat, { groupId: seat.groups.blocked });
    const first = await send(chats[0]!, 'stored before', 'batch-replay-1');
    expect(first.code).toBe('000000');
    const before = await sql<{ n: number }>`select count(*) as n from messages
      where seat_id = ${seat.seatId}`.execute(t.db);
    const wave = await Promise.all([
      ...chats.slice(1, 9).map((chat, i) => send(chat, `ordinary ${i}`)),
      send(chats[9]!, 'a replay', 'batch-replay-1'),
      send(chats[10]!, 'twice at once', 'batch-twice-1'),
      send(chats[11]!, 'twice at once', 'batch-twice-1'),
      send(blocked, 'to a blocked chat'),
      send({ sendPhone: other.phones[0]!, receiverPhone: chats[1]!.receiverPhone }, 'foreign'),
      send({ sendPhone: chats[1]!.sendPhone, receiverPhone: '+19995550100' }, 'no such chat'),
    ]);
    const [replay, twiceA, twiceB, toBlocked, foreign, missing] = wave.slice(8);
    expect(wave.slice(0, 8).every((a) => a.code === '000000')).toBe(true);
    // A replay answers the stored message; the same id twice at once is stored once.
    expect(replay).toMatchObject({ code: '000000', msgId: first.msgId });
    expect(twiceA!.code).toBe('000000');
    expect(twiceB).toMatchObject({ code: '000000', msgId: twiceA!.msgId });
    expect(toBlocked!.code).toBe('400003');
    expect(foreign!.code).toBe('400003');
    expect(missing!.code).toBe('400001');
    const after = await sql<{ n: number }>`select count(*) as n from messages
      where seat_id = ${seat.seatId}`.execute(t.db);
    expect(Number(after.rows[0]!.n) - Number(before.rows[0]!.n)).toBe(9);
    // The seat's events stay numbered without gap: one message.created per stored message.
    const events = await sql<{ seq: number }>`select seq from events
      where seat_id = ${seat.seatId} order by seq`.execute(t.db);
    expect(events.rows.map((e) => Number(e.seq))).toEqual(events.rows.map((_, i) => i + 1));
  });

  it("a send's event shows its message and chat as the API shows them", async () => {
    // A chat with fields of its own (pinned, a remark, unread messages, a customer language, a
    // custom group), sent to together with others so the sends share batches.
    const group = await t.call(
      '/v1/seat/chat/doGroup',
      { type: 'add', group_name: 'Batch VIP' },
      seat.token,
    );
    const groupId = group.data!.group.group_id;
    const chat = await createChat(t.db, seat, {
      groupId,
      isTop: true,
      remark: 'Ana, wholesale',
      unread: 3,
    });
    await sql`update sessions set customer_language = 'pt'
      where id = ${chat.sessionId}`.execute(t.db);
    const [mine] = await Promise.all([
      send(chat, 'Olá, Ana!'),
      ...chats.slice(0, 6).map((c, i) => send(c, `alongside ${i}`)),
    ]);
    expect(mine!.code).toBe('000000');

    const [event] = (
      await sql<{ data: string }>`select data from events where seat_id = ${seat.seatId}
        and type = 'message.created' order by seq desc limit 20`.execute(t.db)
    ).rows
      .map((r) => JSON.parse(r.data) as { message: { msg_id: number }; session: unknown })
      .filter((d) => d.message.msg_id === mine!.msgId);
    const info = await t.call('/v1/seat/chat/getGroupInfo', { group_id: groupId }, seat.token);
    const record = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone },
      seat.token,
    );
    expect(info.data.account_list).toHaveLength(1);
    // A message's push leaves out the chat's labels (the console keeps those it has).
    const { labels: _labels, ...row } = info.data.account_list[0]!;
    expect(event).toEqual({ message: record.data.list.at(-1), session: row });
    expect(event!.session).toMatchObject({
      is_top: true,
      remark: 'Ana, wholesale',
      un_read_count: 3,
      customer_language: 'pt',
      group_id: groupId,
      last_message: { preview: 'Olá, Ana!', direction: 'out' },
    });
  });

  it('sends committed together are each found by search at once; a failing one leaves no entry', async () => {
    // SQLite writes a batch's search entries in one statement before its commit (migration
    // 030); a message written outside a batch (a customer's) is indexed by its insert.
    const tag = `zq${Date.now().toString(36)}`;
    const answers = await Promise.all(
      chats.map((chat, i) => send(chat, i === 4 ? 'poison' : `${tag} batch word ${i}`)),
    );
    expect(answers.filter((a) => a.code !== '000000').map((a) => a.content)).toEqual(['poison']);
    await t.services.messages.receive({
      sendPhone: chats[0]!.sendPhone,
      receiverPhone: chats[0]!.receiverPhone,
      content: `${tag} from the customer`,
    });
    const found = await t.call('/v1/seat/chat/searchMessage', { keyword: tag }, seat.token);
    expect(found.code).toBe('000000');
    const contents = found.data.list.map((h) => h.message.content).sort();
    expect(contents).toEqual(
      [
        `${tag} from the customer`,
        ...answers.filter((a) => a.code === '000000').map((a) => a.content),
      ].sort(),
    );
    const hits = found.data.list.map((h) => h.message.msg_id);
    expect(new Set(hits).size).toBe(hits.length);
    // Nothing is left held back: the next insert outside a batch is indexed by its trigger.
    if (!usingPg) {
      const held = await sql<{
        n: number;
      }>`select count(*) as n from search_entries_deferred`.execute(t.db);
      expect(Number(held.rows[0]!.n)).toBe(0);
      const entries = await sql<{ n: number }>`select count(*) as n from messages_fts
        where messages_fts match ${`"${tag}"`}`.execute(t.db);
      expect(Number(entries.rows[0]!.n)).toBe(contents.length);
    }
  });

  it('a text the batch cannot carry (a lone surrogate) is sent alone, stored as answered', async () => {
    const texts = ['half \ud83d a smile', ...chats.slice(1, 7).map((_, i) => `beside ${i}`)];
    const answers = await Promise.all(texts.map((text, i) => send(chats[i]!, text)));
    expect(answers.map((a) => a.code)).toEqual(texts.map(() => '000000'));
    const stored = await sql<{ id: number; content: string }>`select id, content from messages
      where id in (${sql.join(answers.map((a) => a.msgId!))})`.execute(t.db);
    const byId = new Map(stored.rows.map((r) => [Number(r.id), r.content]));
    const record = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: chats[0]!.sendPhone, receiver_phone: chats[0]!.receiverPhone },
      seat.token,
    );
    const shown = record.data.list.find((m) => m.msg_id === answers[0]!.msgId);
    expect(shown?.content).toBe(byId.get(answers[0]!.msgId!));
    expect(byId.get(answers[0]!.msgId!)).toMatch(/^half .* a smile$/);
    answers.slice(1).forEach((a, i) => expect(byId.get(a.msgId!)).toBe(`beside ${i}`));
  });
});
