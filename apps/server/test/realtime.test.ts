import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run.js';
import { authRepository } from '../src/modules/auth/auth.repository.js';
import { createChat, createGroup, createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { PushClient } from './ws-client.js';

let t: TestApp;
let base: string;
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

async function connect(hello?: { token: string; last_event_id?: number }) {
  const client = await PushClient.open(base, hello);
  clients.push(client);
  return client;
}

/** A signed-in console of `seat`, past its `ready`. */
async function consoleOf(seat: SeatFixture, lastEventId = 0) {
  const client = await connect({ token: seat.token, last_event_id: lastEventId });
  const ready = await client.waitFor('ready');
  return { client, ready };
}

let msgCounter = 0;
function send(seat: SeatFixture, chat: { sendPhone: string; receiverPhone: string }, text: string) {
  msgCounter += 1;
  return t.call(
    '/v1/seat/chat/message',
    {
      send_phone: chat.sendPhone,
      receiver_phone: chat.receiverPhone,
      type: 'text',
      content: text,
      client_msg_id: `rt-${process.pid}-${msgCounter}`,
    },
    seat.token,
  );
}

describe('hello', () => {
  it('answers an unknown token with 400002 and closes', async () => {
    const client = await connect({ token: 'not-a-token' });
    const frame = await client.waitFor('error');
    expect(frame).toMatchObject({ kind: 'error', code: '400002' });
    expect((await client.waitForClose()).code).toBe(4001);
  });

  it('answers a malformed hello with 100001 and closes', async () => {
    const client = await connect();
    client.ws.send('{"last_event_id":"x"}');
    expect(await client.waitFor('error')).toMatchObject({ code: '100001' });
    await client.waitForClose();
  });

  it('answers a signed-in console with ready, its newest event id and the heartbeat', async () => {
    const seat = await createSeat(t, 'rt-hello');
    const { ready } = await consoleOf(seat);
    expect(ready).toMatchObject({ kind: 'ready', last_event_id: 0, heartbeat_ms: 200 });
    // The socket stays open and hears the heartbeat.
    const { client } = await consoleOf(seat);
    await client.waitFor('ping');
  });
});

describe('each change reaches its own seat only', () => {
  it('pushes every kind of change to the seat that made it, in order, and nothing to another', async () => {
    const a = await createSeat(t, 'rt-seat-a');
    const b = await createSeat(t, 'rt-seat-b');
    const chat = await createChat(t.db, a, { unread: 2 });
    const other = await createChat(t.db, a);
    const bChat = await createChat(t.db, b);
    const { client: ca } = await consoleOf(a);
    const { client: cb } = await consoleOf(b);

    // Reading a chat with unread messages.
    const read = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone },
      a.token,
    );
    expect(read.code).toBe('000000');
    await ca.waitForEvent('session.updated', (d) => d.session.session_id === chat.sessionId);
    await ca.waitForEvent('groups.changed', (d) => d.un_read_count === 0);

    // Sending.
    const sent = await send(a, chat, 'hello from A');
    await ca.waitForEvent(
      'message.created',
      (d) => d.message.msg_id === sent.data.msg_id && d.session.session_id === chat.sessionId,
    );

    // A customer writes (the platform bridge / CLI path).
    const received = await t.services.messages.receive({
      sendPhone: chat.sendPhone,
      receiverPhone: chat.receiverPhone,
      content: 'customer says hi',
    });
    if ('blocked' in received) throw new Error('blocked');
    await ca.waitForEvent(
      'message.created',
      (d) => d.message.msg_id === received.message.msg_id && d.message.direction === 'in',
    );
    await ca.waitForEvent('groups.changed', (d) => d.un_read_count === 1);

    // Deleting only for me, and for all.
    const mine = await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: received.message.msg_id, scope: 'me' },
      a.token,
    );
    expect(mine.code).toBe('000000');
    await ca.waitForEvent('message.deleted', (d) => d.msg_id === received.message.msg_id);
    const all = await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: sent.data.msg_id, scope: 'all' },
      a.token,
    );
    expect(all.code).toBe('000000');
    await ca.waitForEvent(
      'message.updated',
      (d) => d.message.msg_id === sent.data.msg_id && d.message.deleted === true,
    );

    // Chat actions.
    const sid = other.sessionId;
    await t.call('/v1/seat/chat/sessionDoTop', { session_id: sid, is_top: true }, a.token);
    await ca.waitForEvent(
      'session.updated',
      (d) => d.session.session_id === sid && d.session.is_top,
    );
    await t.call('/v1/seat/chat/set_remark', { session_id: sid, remark: 'VIP' }, a.token);
    await ca.waitForEvent('session.updated', (d) => d.session.remark === 'VIP');
    await t.call(
      '/v1/seat/chat/set_customer_language',
      { session_id: sid, customer_language: 'DE' },
      a.token,
    );
    await ca.waitForEvent('session.updated', (d) => d.session.customer_language === 'DE');
    const group = await t.call(
      '/v1/seat/chat/doGroup',
      { type: 'add', group_name: 'Leads' },
      a.token,
    );
    expect(group.code).toBe('000000');
    await ca.waitForEvent('groups.changed', (d) =>
      d.group_list.some((g: { group_name: string }) => g.group_name === 'Leads'),
    );
    await t.call(
      '/v1/seat/chat/moveSessionGroup',
      { session_id: sid, group_id: group.data.group.group_id },
      a.token,
    );
    await ca.waitForEvent(
      'session.updated',
      (d) => d.session.session_id === sid && d.session.group_id === group.data.group.group_id,
    );
    await t.call('/v1/seat/chat/block', { session_id: sid }, a.token);
    await ca.waitForEvent(
      'session.updated',
      (d) => d.session.session_id === sid && d.session.blocked,
    );
    await t.call('/v1/seat/chat/unblock', { session_id: sid }, a.token);
    await ca.waitForEvent(
      'session.updated',
      (d) => d.session.session_id === sid && !d.session.blocked,
    );
    await t.call('/v1/seat/chat/oneClickRead', {}, a.token);
    await ca.waitForEvent('groups.changed', (d) => d.un_read_count === 0);
    await t.call('/v1/seat/chat/delSession', { session_id: sid }, a.token);
    await ca.waitForEvent('session.deleted', (d) => d.session_id === sid);

    // A new chat, and a batch reply (one message per chat, then its progress).
    const customer = nextPhone('+4479');
    const added = await t.call(
      '/v1/seat/chat/addSession',
      {
        send_phone: a.phones[0]!,
        receiver_phone: customer,
        greeting: 'Welcome',
        client_msg_id: `rt-add-${process.pid}`,
      },
      a.token,
    );
    expect(added.code).toBe('000000');
    await ca.waitForEvent('session.created', (d) => d.session.receiver_phone === customer);
    const batch = await t.call(
      '/v1/seat/chat/batch_message',
      {
        batch_id: `rt-batch-${process.pid}`,
        session_ids: [chat.sessionId, added.data.session.session_id],
        content: 'Sale today',
      },
      a.token,
    );
    expect(batch.code).toBe('000000');
    await ca.waitForEvent('batch.progress', (d) => d.done && d.sent === 2);
    const batchMessages = ca
      .events()
      .filter((e) => e.type === 'message.created')
      .filter((e) => (e.data as { message: { content: string } }).message.content === 'Sale today');
    expect(batchMessages).toHaveLength(2);

    // The seat's events are numbered 1, 2, 3, ... in the order they were made.
    const ids = ca.events().map((e) => e.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    // Seat B heard nothing of it; its own change reaches it (and not A).
    expect(cb.events()).toEqual([]);
    await t.call(
      '/v1/seat/chat/sessionDoTop',
      { session_id: bChat.sessionId, is_top: true },
      b.token,
    );
    await cb.waitForEvent('session.updated', (d) => d.session.session_id === bChat.sessionId);
    expect(cb.events()).toHaveLength(1);
    expect(cb.events()[0]!.id).toBe(1);
    expect(
      ca
        .events()
        .some(
          (e) =>
            e.type === 'session.updated' &&
            (e.data as { session: { session_id: number } }).session.session_id === bChat.sessionId,
        ),
    ).toBe(false);
  });

  it('one-click read tells every console of the seat which chats are read, with the counts', async () => {
    const seat = await createSeat(t, 'rt-read-all');
    const leads = await createGroup(t, seat, 'Leads');
    const a = await createChat(t.db, seat, { unread: 2 });
    const b = await createChat(t.db, seat, { unread: 1, groupId: leads });
    const c = await createChat(t.db, seat, { unread: 3 });
    const read = await createChat(t.db, seat);
    // Two consoles of the same seat: the one that clicks and another one.
    const { client: other } = await consoleOf(seat);

    // One group first: only its chats.
    const one = await t.call('/v1/seat/chat/oneClickRead', { group_id: leads }, seat.token);
    expect(one.data).toEqual({ cleared: 1 });
    const first = await other.waitForEvent('sessions.read');
    expect(first.data).toEqual({ session_ids: [b.sessionId] });
    await other.waitForEvent('groups.changed', (d) => d.un_read_count === 5);

    const all = await t.call('/v1/seat/chat/oneClickRead', {}, seat.token);
    expect(all.data).toEqual({ cleared: 5 });
    const second = await other.waitForEvent(
      'sessions.read',
      (d) => !d.session_ids.includes(b.sessionId),
    );
    const ids = (second.data as { session_ids: number[] }).session_ids;
    expect([...ids].sort()).toEqual([a.sessionId, c.sessionId].sort());
    expect(ids).not.toContain(read.sessionId);
    await other.waitForEvent('groups.changed', (d) => d.un_read_count === 0);

    // Nothing left to read: nothing is pushed.
    const count = other.events().length;
    expect((await t.call('/v1/seat/chat/oneClickRead', {}, seat.token)).data).toEqual({
      cleared: 0,
    });
    await t.call('/v1/seat/chat/set_remark', { session_id: a.sessionId, remark: 'x' }, seat.token);
    await other.waitForEvent('session.updated', (d) => d.session.remark === 'x');
    expect(
      other
        .events()
        .slice(count)
        .map((e) => e.type),
    ).toEqual(['session.updated']);
  });

  it('brings a message the CLI received (another process) to the open console', async () => {
    const seat = await createSeat(t, 'rt-cli');
    const customer = nextPhone('+4478');
    const { client } = await consoleOf(seat);
    const lines: string[] = [];
    const status = await runCli(
      ['chat:receive', seat.phones[0]!, customer, 'from the CLI'],
      { out: (l) => lines.push(l), err: (l) => lines.push(l) },
      t.config,
    );
    expect(status, lines.join('\n')).toBe(0);
    const event = await client.waitForEvent(
      'message.created',
      (d) => d.message.content === 'from the CLI',
    );
    expect(event.data).toMatchObject({ session: { receiver_phone: customer, un_read_count: 1 } });
  });
});

describe('resume', () => {
  it('after a reconnect sends exactly the missed events, in order, then live ones', async () => {
    const seat = await createSeat(t, 'rt-resume');
    const chat = await createChat(t.db, seat);
    const first = await consoleOf(seat);
    await send(seat, chat, 'one');
    const seen = await first.client.waitForEvent('message.created');
    first.client.close();
    await first.client.waitForClose();

    await send(seat, chat, 'two');
    await send(seat, chat, 'three');
    const again = await connect({ token: seat.token, last_event_id: seen.id });
    const ready = await again.waitFor('ready');
    expect(ready).toMatchObject({ last_event_id: seen.id + 2 });
    await again.until(() => (again.events().length >= 2 ? true : undefined), 'two missed events');
    await send(seat, chat, 'four');
    await again.waitForEvent('message.created', (d) => d.message.content === 'four');
    const contents = again
      .events()
      .map((e) => (e.data as { message: { content: string } }).message.content);
    expect(contents).toEqual(['two', 'three', 'four']);
    expect(again.events().map((e) => e.id)).toEqual([seen.id + 1, seen.id + 2, seen.id + 3]);
  });

  it('says reset when the resume point is older than the kept events, or unknown', async () => {
    const seat = await createSeat(t, 'rt-reset');
    const chat = await createChat(t.db, seat);
    await send(seat, chat, 'a');
    await send(seat, chat, 'b');
    await send(seat, chat, 'c');
    // Pruned: everything older than the retention (here: all of it).
    expect(await t.app.parley.jobs.eventsPruner.prune(Date.now() + 48 * 3600_000)).toBeGreaterThan(
      0,
    );
    const old = await connect({ token: seat.token, last_event_id: 1 });
    expect(await old.waitFor('reset')).toMatchObject({ kind: 'reset', last_event_id: 3 });
    // Live events follow the reset, numbered on.
    await send(seat, chat, 'd');
    const live = await old.waitForEvent('message.created');
    expect(live.id).toBe(4);
    expect(old.events()).toHaveLength(1);

    const ahead = await connect({ token: seat.token, last_event_id: 999 });
    expect(await ahead.waitFor('reset')).toMatchObject({ last_event_id: 4 });
  });
});

describe('heartbeat', () => {
  it('drops a socket that stops answering pings, and pushes nothing more to it', async () => {
    const seat = await createSeat(t, 'rt-dead');
    const dead = await PushClient.open(base, { token: seat.token }, { autoPong: false });
    clients.push(dead);
    await dead.waitFor('ready');
    // Terminated (no close handshake: 1006) within two heartbeats.
    expect((await dead.waitForClose()).code).toBe(1006);
    expect(t.app.parley.realtime.hub.lowestSent(seat.seatId)).toBeNull();
  });

  // The server and this test share one event loop, as a loaded server shares its core.
  it('keeps a socket through a held event loop: the late beat drops nobody', async () => {
    const seat = await createSeat(t, 'rt-held');
    const client = await PushClient.open(base, { token: seat.token });
    clients.push(client);
    await client.waitFor('ready');
    const pings = () => client.frames.filter((f) => f.kind === 'ping').length;
    const pinged = pings();
    // Held as the ping arrives: its pong is sent, unread by the server when the next beat is due.
    await client.until(() => (pings() > pinged ? true : undefined), 'a ping');
    const release = Date.now() + 3 * t.config.realtime.heartbeatMs;
    while (Date.now() < release) {
      // a synchronous task holding the loop
    }
    const heldAt = pings();
    await client.until(() => (pings() >= heldAt + 3 ? true : undefined), 'three more pings');
    expect(client.closed).toBeNull();
  });
});

describe('token', () => {
  it('closes the socket with 400002 once the token is revoked', async () => {
    const seat = await createSeat(t, 'rt-revoke');
    const { client } = await consoleOf(seat);
    await authRepository.revokeSeatTokens(t.db, seat.seatId, Date.now());
    expect(await client.waitFor('error')).toMatchObject({ code: '400002' });
    expect((await client.waitForClose()).code).toBe(4001);
  });
});
