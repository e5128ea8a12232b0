import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformService } from '../src/channels/platform/platform.service.js';
import { GroupCommitInboundWriter } from '../src/modules/messages/group-commit-inbound-writer.js';
import type { InboundMessage, InboundWriter } from '../src/modules/messages/inbound-writer.js';
import { createChat, createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { usingPg, type TestApp } from './helper.js';
import { tracedWorld, type TracedWorld } from './traced-services.js';

/**
 * A batch of customers' messages (the inbound group commit) costs a fixed number of
 * statements on PostgreSQL, whatever its size (issue 25: four round trips per message were
 * most of an inbound message's server CPU), and writes the rows and events the
 * message-by-message writer (SQLite's) writes for the same batch.
 */
let w: TracedWorld;
let t: TestApp;
let traced: TracedWorld['traced'];
let services: TracedWorld['services'];
let counter = 0;

beforeAll(async () => {
  w = await tracedWorld();
  ({ t, traced, services } = w);
});
afterAll(async () => {
  await w?.close();
});

const statementsOf: TracedWorld['statementsOf'] = (work) => w.statementsOf(work);
/** Two seats, each with a known customer (named), a new one and a blocked chat. */
async function world(name: string) {
  const seats: SeatFixture[] = [];
  const known: string[] = [];
  const blocked: string[] = [];
  for (const s of ['a', 'b']) {
    const seat = await createSeat(t, `${name}-${s}`);
    seats.push(seat);
    known.push((await createChat(t.db, seat, { unread: 2, inbound: 3 })).receiverPhone);
    blocked.push(
      (await createChat(t.db, seat, { groupId: seat.groups.blocked, unread: 0 })).receiverPhone,
    );
  }
  return { seats, known, blocked, fresh: seats.map(() => nextPhone('+4479')) };
}

/** 21 messages: known customers' (names given on some), new ones', blocked ones', a duplicate. */
function batchOf(w: Awaited<ReturnType<typeof world>>): InboundMessage[] {
  const at = Date.now() - 60_000;
  const units: InboundMessage[] = [];
  const message = (s: number, customer: string, i: number, customerName?: string) => {
    const seat = w.seats[s]!;
    units.push({
      channel: 'platform',
      seatId: seat.seatId,
      // As the platform's read of the account says (accountAndTaken): not a team's.
      queueSeat: false,
      key: { channel: 'platform', sendPhone: seat.phones[0]!, externalId: `st-${++counter}` },
      sendPhone: seat.phones[0]!,
      receiverPhone: customer,
      type: 'text',
      content: `  message\n${i}  `,
      at: at + i,
      ...(customerName !== undefined ? { customerName } : {}),
    });
  };
  for (let i = 0; i < 20; i++) {
    const s = i % 2;
    const kind = Math.floor(i / 2) % 5;
    if (kind === 0 || kind === 1) {
      message(s, w.known[s]!, i, i === 2 ? 'Ana' : i === 12 ? '' : i === 13 ? 'Bruno' : undefined);
    } else if (kind === 2 || kind === 3) {
      message(s, w.fresh[s]!, i, i === 16 ? 'Carla' : undefined);
    } else {
      message(s, w.blocked[s]!, i);
    }
  }
  // The first message's key again, later in the batch.
  units.push({ ...units[0]!, content: 'again' });
  return units;
}

/** Every row and event a batch left, without the ids and times that differ between worlds. */
async function leftBy(w: Awaited<ReturnType<typeof world>>) {
  const out = [];
  for (const seat of w.seats) {
    const chats = await t.db
      .selectFrom('sessions')
      .select(['receiver_phone', 'un_read_count', 'last_preview', 'customer_name', 'blocked'])
      .where('seat_id', '=', seat.seatId)
      .orderBy('id')
      .execute();
    const messages = await t.db
      .selectFrom('messages')
      .select(['content', 'direction', 'status', 'type', 'external_id'])
      .where('seat_id', '=', seat.seatId)
      .orderBy('id')
      .execute();
    const turns = await t.db
      .selectFrom('chat_turns')
      .select(['direction'])
      .where('seat_id', '=', seat.seatId)
      .orderBy('seq')
      .execute();
    const events = await t.db
      .selectFrom('events')
      .select(['seq', 'type', 'data'])
      .where('seat_id', '=', seat.seatId)
      .orderBy('seq')
      .execute();
    const phones = new Map(chats.map((c, i) => [c.receiver_phone, `chat ${i}`]));
    const anon = (text: string) => {
      let out = text;
      for (const [phone, name] of phones) out = out.split(phone).join(name);
      return out
        .split(seat.phones[0]!)
        .join('account')
        .replace(/"(id|session_id|msg_id|group_id|created_at|latest_time|add_time)":\d+/g, '"$1":0')
        .replace(/"external_id":"st-\d+"/g, '"external_id":"x"');
    };
    out.push({
      chats: chats.map((c) => ({ ...c, receiver_phone: phones.get(c.receiver_phone) })),
      messages: messages.map((m) => ({ ...m, external_id: m.external_id ? 'x' : null })),
      turns,
      events: events.map((e) => ({ seq: e.seq, type: e.type, data: anon(e.data) })),
    });
  }
  return out;
}

/** The batch handed in at once: one commit. */
const writeAll = (writer: InboundWriter, units: InboundMessage[]) =>
  Promise.all(units.map((u) => writer.write(u)));

describe('the inbound group commit’s statements', () => {
  it('writes the rows and events the message-by-message writer writes', async () => {
    const one = await world('inb-one');
    const byOne = new GroupCommitInboundWriter(traced.db, services.media, services.events);
    const oneAnswers = await writeAll(byOne, batchOf(one));

    const batched = await world('inb-batch');
    const { result: answers } = await statementsOf(() =>
      writeAll(services.inbound, batchOf(batched)),
    );
    const kinds = (a: typeof answers) => a.map((o) => o.kind);
    expect(kinds(answers)).toEqual(kinds(oneAnswers));
    expect(kinds(answers).filter((k) => k === 'stored')).toHaveLength(16);
    expect(kinds(answers).filter((k) => k === 'blocked')).toHaveLength(4);
    expect(kinds(answers).at(-1)).toBe('taken');
    expect(await leftBy(batched)).toEqual(await leftBy(one));
  });

  it.runIf(usingPg)(
    'is a fixed number of statements on PostgreSQL, whatever the batch',
    async () => {
      const small = await world('inb-small');
      const two = batchOf(small)
        .filter((u) => u.receiverPhone === small.known[0])
        .slice(0, 2);
      const { sql: forTwo } = await statementsOf(() => writeAll(services.inbound, two));

      const big = await world('inb-big');
      const { sql: forMany } = await statementsOf(() => writeAll(services.inbound, batchOf(big)));
      // 21 messages of 6 chats, 4 of them new, on 2 seats: the new chats cost two statements
      // (the seats' Ungrouped groups, the chats), nothing else grows with the batch (it was
      // four statements per message). Two messages: begin, the chats, the messages, the chats'
      // counts, the keys, the group lists, the events, commit.
      expect(forTwo.length).toBeLessThanOrEqual(8);
      expect(forMany.length).toBe(forTwo.length + 2);
    },
  );
});

/** The platform's inbound side on the traced connection, and a new customer's message to it. */
function platformMessage(account: string, content: string) {
  const platform = new PlatformService(
    traced.db,
    'secret',
    services.messages,
    services.media,
    services.events,
    services.inbound,
  );
  const input = {
    id: `reads-${++counter}`,
    account,
    customer: nextPhone('+4477'),
    type: 'text' as const,
    content,
  };
  return { platform, input };
}

describe("a webhook's reads before its batch", () => {
  it('are one statement: the account and the key already taken together (a retry: that one alone)', async () => {
    const seat = await createSeat(t, 'inb-reads');
    const { platform, input } = platformMessage(seat.phones[0]!, 'Hello');
    const first = await statementsOf(() => platform.receiveMessage(input as never, null));
    expect(first.result.duplicate).toBe(false);
    // Before the batch's transaction: one round trip (two before: the account, then the key).
    expect(first.sql.findIndex((sql) => /^begin/i.test(sql))).toBe(1);
    const again = await statementsOf(() => platform.receiveMessage(input as never, null));
    expect(again.result).toEqual({ msg_id: first.result.msg_id, blocked: false, duplicate: true });
    expect(again.sql).toHaveLength(1);
  });

  it("of a team number: the account's read says it is a team's, the team door reads only the chat's holder", async () => {
    const { ana, account } = await teamNumber('inb-team', 'manual');
    const { platform, input } = platformMessage(ana.phones[0]!, 'Hello, team');
    const { sql, result } = await statementsOf(() => platform.receiveMessage(input as never, null));
    expect(result.duplicate).toBe(false);
    const before = sql.slice(
      0,
      sql.findIndex((q) => /^begin/i.test(q)),
    );
    // The account with the key and the team, then the chat's holder: no read of the queue seat.
    expect(before, before.join('\n')).toHaveLength(2);
    expect(before[1]).toMatch(/from "sessions"/);
    const queued = await holderOf(ana.phones[0]!, input.customer);
    const team = await t.db
      .selectFrom('team_accounts')
      .select('queue_seat_id')
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(queued.seat_id).toBe(team.queue_seat_id);
  });

  it('of a team number with automatic routing: one transaction after the write routes the new chat, reading the team once, with its account', async () => {
    const { ana, bo } = await teamNumber('inb-route', 'automatic');
    services.teams.setOnlineRule(() => true);
    try {
      const { platform, input } = platformMessage(ana.phones[0]!, 'Hello, routing');
      const { sql } = await statementsOf(() => platform.receiveMessage(input as never, null));
      // What follows the message's own transaction: the routing step (issue 35: under 5 ms).
      const routing = sql.slice(sql.findIndex((q) => /^commit/i.test(q)) + 1);
      const text = routing.join('\n');
      expect(routing[0], text).toMatch(/^begin/i);
      expect(routing.at(-1), text).toMatch(/^commit/i);
      expect(
        routing.filter((q) => /^begin/i.test(q)),
        text,
      ).toHaveLength(1);
      const reads = (table: string) =>
        routing.filter((q) => /^select/i.test(q) && new RegExp(`from "${table}"`).test(q));
      expect(reads('team_accounts'), text).toHaveLength(1);
      expect(reads('team_accounts')[0]).toMatch(/join "phone_accounts"/);
      expect(reads('phone_accounts'), text).toHaveLength(0);
      expect(reads('team_members'), text).toHaveLength(1);
      const chat = await holderOf(ana.phones[0]!, input.customer);
      expect([ana.seatId, bo.seatId]).toContain(chat.seat_id);
    } finally {
      services.teams.setOnlineRule(() => false);
    }
  });
});

/** The seat holding the chat of these numbers. */
function holderOf(sendPhone: string, customer: string) {
  return t.db
    .selectFrom('sessions')
    .select('seat_id')
    .where('send_phone', '=', sendPhone)
    .where('receiver_phone', '=', customer)
    .executeTakeFirstOrThrow();
}

/** Two seats made members of a team on the first one's number (by the app's services). */
async function teamNumber(name: string, routing: 'manual' | 'automatic') {
  const [ana, bo] = [await createSeat(t, `${name}-a`), await createSeat(t, `${name}-b`)];
  const account = await t.db
    .selectFrom('phone_accounts')
    .select('id')
    .where('send_phone', '=', ana.phones[0]!)
    .executeTakeFirstOrThrow();
  // Made by the app: these traced services have never seen its queue seat.
  await t.services.teams.set({
    account_id: account.id,
    routing,
    capacity: 5,
    member_ids: [ana.seatId, bo.seatId],
  });
  return { ana, bo, account };
}
