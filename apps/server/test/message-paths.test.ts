import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { createTestApp, usingPg, type TestApp } from './helper.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { platformPost, SECRET } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';
import { PushClient } from './ws-client.js';

/**
 * Every operator message (a reply, a new chat's greeting, a batch item) leaves through the
 * same path: stored, queued once for the customer's channel, pushed. Every retraction (the
 * operator's "delete for all", the customer's deletion on the platform) goes through one
 * path too, its events committed with it.
 */
let t: TestApp;
let seat: SeatFixture;
let base: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const clients: PushClient[] = [];

beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  t = await createTestApp({
    platform: {
      secret: SECRET,
      url: receiver.url,
      timeoutMs: 5_000,
      maxAttempts: 4,
      retryBaseMs: 10,
      leaseMs: 5_000,
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  seat = await createSeat(t, 'paths-owner');
});
afterAll(async () => {
  clients.forEach((c) => c.close());
  await t?.close();
  await receiver?.close();
});

let n = 0;
const until = <T>(fn: () => Promise<T> | T) => vi.waitFor(fn, { timeout: 15_000, interval: 20 });

/** A signed-in console of the seat, past its `ready`. */
async function openConsole() {
  const client = await PushClient.open(base, { token: seat.token, last_event_id: 0 });
  clients.push(client);
  await client.waitFor('ready');
  return client;
}

function addChat(customer: string, greeting: string, clientMsgId = `paths-add-${++n}`) {
  return t.call(
    '/v1/seat/chat/addSession',
    { send_phone: seat.phones[0]!, receiver_phone: customer, greeting, client_msg_id: clientMsgId },
    seat.token,
  );
}

async function reply(customer: string, content: string) {
  const res = await t.call(
    '/v1/seat/chat/message',
    {
      send_phone: seat.phones[0]!,
      receiver_phone: customer,
      type: 'text',
      content,
      client_msg_id: `paths-msg-${++n}`,
    },
    seat.token,
  );
  expect(res.code, res.raw).toBe('000000');
  return res.data;
}

/** A customer writes on the platform; answers the platform's id of that message. */
async function customerWrites(customer: string, content: string) {
  const id = `paths-in-${++n}`;
  const res = await platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({ id, account: seat.phones[0], customer, type: 'text', content }),
  );
  expect(res.code, res.raw).toBe('000000');
  return { id, msgId: (res.data as { msg_id: number }).msg_id };
}

const outboxOf = (msgId: number) =>
  t.db.selectFrom('outbox').select(['kind', 'status']).where('msg_id', '=', msgId).execute();
const postsOf = (msgId: number, kind: 'message' | 'delete' = 'message') =>
  receiver.raw.filter((r) => r.body.msg_id === msgId && r.body.kind === kind);

/** Waits until the message went out and its outbox row is done; answers what the platform got. */
async function deliveredOnce(msgId: number) {
  await until(async () =>
    expect(await outboxOf(msgId)).toEqual([{ kind: 'message', status: 'done' }]),
  );
  const posts = postsOf(msgId);
  expect(posts).toHaveLength(1);
  return posts[0]!.body;
}

const record = async (customer: string) =>
  (
    await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: seat.phones[0]!, receiver_phone: customer },
      seat.token,
    )
  ).data.list;

describe('an operator message reaches the customer, once, whichever call made it', () => {
  it('the greeting of a new chat reaches the platform once, and shows as sent by it', async () => {
    const customer = nextPhone('+4483');
    const added = await addChat(customer, 'Hello! This is Parley support.', 'paths-greet-1');
    expect(added.code, added.raw).toBe('000000');
    const msgId = added.data.message.msg_id;
    expect(await deliveredOnce(msgId)).toMatchObject({
      kind: 'message',
      account: seat.phones[0],
      customer,
      type: 'text',
      content: 'Hello! This is Parley support.',
    });
    const stored = await t.db
      .selectFrom('messages')
      .select(['status', 'external_id'])
      .where('id', '=', msgId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'sent', external_id: `ext-parley-${msgId}-message` });

    // A retry of the same addSession answers the stored chat and sends nothing again.
    const again = await addChat(customer, 'Hello! This is Parley support.', 'paths-greet-1');
    expect(again.data.message.msg_id).toBe(msgId);
    expect(await outboxOf(msgId)).toHaveLength(1);
    expect(postsOf(msgId)).toHaveLength(1);
  });

  it('a greeting with a Telegram link moves the new chat to TG link pushed, like a reply', async () => {
    const customer = nextPhone('+4483');
    const added = await addChat(customer, 'Talk to us on https://t.me/parley_support');
    expect(added.code, added.raw).toBe('000000');
    expect(added.data.session.group_id).toBe(seat.groups.tg_link_pushed);
    await deliveredOnce(added.data.message.msg_id);
  });

  it('a reply and each item of a batch go through the outbox once', async () => {
    const first = nextPhone('+4483');
    const second = nextPhone('+4483');
    await customerWrites(first, 'hi');
    await customerWrites(second, 'hello');
    const sent = await reply(first, 'a reply');
    expect(await deliveredOnce(sent.msg_id)).toMatchObject({ customer: first, content: 'a reply' });

    const sessions = [(await record(first))[0]!.session_id, (await record(second))[0]!.session_id];
    const batch = await t.call(
      '/v1/seat/chat/batch_message',
      { batch_id: `paths-batch-${++n}`, session_ids: sessions, type: 'text', content: 'news' },
      seat.token,
    );
    expect(batch.code, batch.raw).toBe('000000');
    const status = await until(async () => {
      const res = await t.call(
        '/v1/seat/chat/batch_status',
        { batch_id: batch.data.batch_id },
        seat.token,
      );
      expect(res.data.done).toBe(true);
      return res.data;
    });
    const ids = status.results.map((r) => r.msg_id!);
    expect(ids).toHaveLength(2);
    const got = [];
    for (const id of ids) got.push(await deliveredOnce(id));
    expect(got.map((b) => b.customer).sort()).toEqual([first, second].sort());
  });
});

describe('a retraction goes through one path, its events with it', () => {
  it('deleted for all by the operator: the consoles see it retracted, the platform is told once', async () => {
    const customer = nextPhone('+4484');
    await customerWrites(customer, 'can you help?');
    const sent = await reply(customer, 'sent by mistake');
    await deliveredOnce(sent.msg_id);
    const console = await openConsole();

    const del = await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: sent.msg_id, scope: 'all' },
      seat.token,
    );
    expect(del.code, del.raw).toBe('000000');
    await console.waitForEvent(
      'message.updated',
      (d) => d.message.msg_id === sent.msg_id && d.message.deleted && d.message.content === '',
    );
    // The chat's preview falls back to the customer's message.
    await console.waitForEvent(
      'session.updated',
      (d) =>
        d.session.session_id === sent.session_id &&
        d.session.last_message?.preview === 'can you help?',
    );
    await until(async () =>
      expect(await outboxOf(sent.msg_id)).toContainEqual({ kind: 'delete', status: 'done' }),
    );
    expect(postsOf(sent.msg_id, 'delete')).toHaveLength(1);
  });

  it('deleted by the customer on the platform: the consoles see it retracted; nothing goes back', async () => {
    const customer = nextPhone('+4484');
    await customerWrites(customer, 'first words');
    const { id, msgId } = await customerWrites(customer, 'oops, not for you');
    const sessionId = (await record(customer))[0]!.session_id;
    const console = await openConsole();

    const res = await platformPost(
      t,
      PLATFORM_PATHS.deletion,
      JSON.stringify({ account: seat.phones[0], id }),
    );
    expect(res.code, res.raw).toBe('000000');
    await console.waitForEvent(
      'message.updated',
      (d) => d.message.msg_id === msgId && d.message.deleted && d.message.content === '',
    );
    await console.waitForEvent(
      'session.updated',
      (d) =>
        d.session.session_id === sessionId && d.session.last_message?.preview === 'first words',
    );
    expect(await outboxOf(msgId)).toEqual([]);
  });
});

/**
 * A change and its events are one transaction: when the seat's event cannot be recorded (here
 * the database refuses it), the change does not happen either, so no console can miss it.
 */
async function refuseEvents(seatId: number) {
  if (usingPg) {
    await sql
      .raw(
        `create or replace function parley_refuse_events() returns trigger language plpgsql as
         $$ begin raise exception 'events refused'; end $$`,
      )
      .execute(t.db);
    await sql
      .raw(
        `create trigger parley_refuse_events before insert on events for each row
         when (new.seat_id = ${Number(seatId)}) execute function parley_refuse_events()`,
      )
      .execute(t.db);
    return () => sql.raw('drop trigger parley_refuse_events on events').execute(t.db);
  }
  await sql
    .raw(
      `create trigger parley_refuse_events before insert on events
       when new.seat_id = ${Number(seatId)} begin select raise(abort, 'events refused'); end`,
    )
    .execute(t.db);
  return () => sql.raw('drop trigger parley_refuse_events').execute(t.db);
}

describe('changes and their events commit together', () => {
  it("a customer's deletion whose event cannot be recorded retracts nothing", async () => {
    const customer = nextPhone('+4485');
    const { id, msgId } = await customerWrites(customer, 'keep me');
    const allow = await refuseEvents(seat.seatId);
    try {
      const res = await platformPost(
        t,
        PLATFORM_PATHS.deletion,
        JSON.stringify({ account: seat.phones[0], id }),
      );
      expect(res.code).not.toBe('000000');
    } finally {
      await allow();
    }
    expect((await record(customer)).find((m) => m.msg_id === msgId)).toMatchObject({
      deleted: false,
      content: 'keep me',
    });
  });

  it('a group change whose event cannot be recorded changes nothing', async () => {
    const allow = await refuseEvents(seat.seatId);
    try {
      const res = await t.call(
        '/v1/seat/chat/doGroup',
        { type: 'add', group_name: 'Never made' },
        seat.token,
      );
      expect(res.code).not.toBe('000000');
    } finally {
      await allow();
    }
    const list = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
    expect(list.data.group_list.map((g) => g.group_name)).not.toContain('Never made');
  });
});
