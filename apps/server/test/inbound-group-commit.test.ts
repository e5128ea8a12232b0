import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';
import { platformPost } from './platform-helpers.js';
import { PushClient } from './ws-client.js';

// Customers' webhooks arriving together share one transaction (modules/messages/group-commit-inbound-writer.ts):
// each is answered once its commit is done, a bad one fails alone, and a seat's consoles get
// every message once with the group list once per commit, not once per message.

let t: TestApp;
let base: string;
let counter = 0;
const clients: PushClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  clients.forEach((c) => c.close());
  await t?.close();
});

async function consoleOf(seat: SeatFixture) {
  const client = await PushClient.open(base, { token: seat.token });
  clients.push(client);
  await client.waitFor('ready');
  return client;
}

function webhook(seat: SeatFixture, customer: string, content: string, id = `gc-${++counter}`) {
  return platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({
      id: `${id}-${process.pid}`,
      account: seat.phones[0],
      customer,
      type: 'text',
      content,
    }),
  );
}

/** What the seat's console was pushed, once `count` message.created frames are in. */
async function pushed(client: PushClient, count: number) {
  await client.until(
    () => client.events().filter((e) => e.type === 'message.created').length >= count || undefined,
    `${count} message.created`,
  );
  // Anything still on its way (a second copy, the last group list) lands within this.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const events = client.events();
  const contents = events
    .filter((e) => e.type === 'message.created')
    .map((e) => (e.data as { message: { content: string } }).message.content);
  return {
    ids: events.map((e) => e.id),
    contents,
    created: events.filter((e) => e.type === 'session.created').length,
    groupLists: events
      .filter((e) => e.type === 'groups.changed')
      .map((e) => (e.data as { un_read_count: number }).un_read_count),
  };
}

/** Each chat of the seat: its unread count, and the customer's messages stored in it. */
async function chatsOf(seat: SeatFixture) {
  const rows = await sql<{ receiver_phone: string; un_read_count: number; stored: number }>`
    select s.receiver_phone, s.un_read_count,
      (select count(*) from messages m where m.session_id = s.id and m.direction = 'in') as stored
    from sessions s where s.seat_id = ${seat.seatId} order by s.receiver_phone`.execute(t.db);
  return rows.rows.map((r) => ({
    customer: r.receiver_phone,
    unread: Number(r.un_read_count),
    stored: Number(r.stored),
  }));
}

async function unreadOfSeat(seat: SeatFixture) {
  const list = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
  return list.data.un_read_count;
}

/** A database fault for one message's content: its insert fails inside the batch. */
async function poison(content: string) {
  if (usingPg) {
    await sql`create or replace function poison_message() returns trigger as $$
      begin raise exception 'poisoned message'; end $$ language plpgsql`.execute(t.db);
    await sql`create trigger poison before insert on messages for each row
      when (new.content = ${sql.lit(content)}) execute function poison_message()`.execute(t.db);
  } else {
    await sql`create trigger poison before insert on messages
      when new.content = ${sql.lit(content)}
      begin select raise(abort, 'poisoned message'); end`.execute(t.db);
  }
  return async () => {
    await sql`drop trigger poison${usingPg ? sql` on messages` : sql``}`.execute(t.db);
  };
}

describe('inbound group commit', () => {
  it('webhooks at once share commits: every message pushed once, the group list once per commit', async () => {
    const seat = await createSeat(t, 'gc-together');
    const client = await consoleOf(seat);
    const customers = [nextPhone('+4471'), nextPhone('+4471')];
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => webhook(seat, customers[i % 2]!, `together ${i}`)),
    );
    expect(answers.map((a) => `${a.status} ${a.code}`)).toEqual(Array(16).fill('200 000000'));
    const seen = await pushed(client, 16);
    expect([...seen.contents].sort()).toEqual(
      Array.from({ length: 16 }, (_, i) => `together ${i}`).sort(),
    );
    expect(seen.created).toBe(2);
    // Consecutive event ids: nothing skipped, nothing twice.
    expect(seen.ids).toEqual(seen.ids.map((_, i) => seen.ids[0]! + i));
    // Fewer group lists than messages: several messages went in one commit.
    expect(seen.groupLists.length).toBeLessThan(16);
    expect(seen.groupLists.at(-1)).toBe(16);
    expect(await chatsOf(seat)).toEqual(
      customers.sort().map((customer) => ({ customer, unread: 8, stored: 8 })),
    );
    expect(await unreadOfSeat(seat)).toBe(16);
  });

  it('two webhooks of one new customer at once: one chat, both messages, unread 2', async () => {
    let groupLists = 0;
    for (let round = 0; round < 5; round++) {
      const seat = await createSeat(t, `gc-pair-${round}`);
      const client = await consoleOf(seat);
      const customer = nextPhone('+4472');
      const answers = await Promise.all([
        webhook(seat, customer, `pair ${round} a`),
        webhook(seat, customer, `pair ${round} b`),
      ]);
      expect(answers.map((a) => `${a.status} ${a.code}`)).toEqual(['200 000000', '200 000000']);
      const msgIds = answers.map((a) => (a.data as { msg_id: number }).msg_id);
      expect(new Set(msgIds).size).toBe(2);
      const seen = await pushed(client, 2);
      expect(seen.contents.sort()).toEqual([`pair ${round} a`, `pair ${round} b`]);
      expect(seen.created).toBe(1);
      expect(seen.groupLists.at(-1)).toBe(2);
      groupLists += seen.groupLists.length;
      expect(await chatsOf(seat)).toEqual([{ customer, unread: 2, stored: 2 }]);
      expect(await unreadOfSeat(seat)).toBe(2);
    }
    // Mostly in one commit (the second message finds the chat the first opened in it).
    expect(groupLists).toBeLessThan(10);
  });

  it('a batch with one bad webhook: that one fails alone, the others are stored and pushed once', async () => {
    const seat = await createSeat(t, 'gc-bad');
    const client = await consoleOf(seat);
    const customers = [nextPhone('+4473'), nextPhone('+4473'), nextPhone('+4473')];
    const bad = `poisoned ${process.pid}`;
    const cure = await poison(bad);
    let answers;
    try {
      answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          webhook(seat, customers[i % 3]!, i === 5 ? bad : `good ${i}`, `gc-bad-${i}`),
        ),
      );
    } finally {
      await cure();
    }
    const bad5 = answers[5]!;
    expect(bad5.status).toBeGreaterThanOrEqual(500);
    expect(bad5.code).not.toBe('000000');
    const good = answers.filter((_, i) => i !== 5);
    expect(good.map((a) => `${a.status} ${a.code}`)).toEqual(Array(15).fill('200 000000'));
    const seen = await pushed(client, 15);
    expect([...seen.contents].sort()).toEqual(
      Array.from({ length: 16 }, (_, i) => `good ${i}`)
        .filter((_, i) => i !== 5)
        .sort(),
    );
    expect(seen.ids).toEqual(seen.ids.map((_, i) => seen.ids[0]! + i));
    expect(seen.groupLists.length).toBeLessThan(15);
    expect(seen.groupLists.at(-1)).toBe(15);
    const chats = await chatsOf(seat);
    expect(chats.map((c) => c.unread)).toEqual(chats.map((c) => c.stored));
    expect(chats.reduce((s, c) => s + c.stored, 0)).toBe(15);
    expect(await unreadOfSeat(seat)).toBe(15);
    // The platform's retry of the bad one, once the fault is gone, is stored: its id was not
    // taken by the failed attempt.
    const retried = await webhook(seat, customers[2]!, bad, 'gc-bad-5');
    expect(retried.code).toBe('000000');
    expect(retried.data).toMatchObject({ duplicate: false, blocked: false });
    expect(await unreadOfSeat(seat)).toBe(16);
  });
});
