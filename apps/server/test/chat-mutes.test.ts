import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS, type PushPayload } from '@parley/protocol';
import { createChat, createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { LocalPushService, PushDevice } from './local-push-service.js';
import { platformPost } from './platform-helpers.js';
import { PushClient } from './ws-client.js';

/**
 * A muted chat (issue 37: "none for a muted chat"): per seat and chat, set from any console and
 * pushed to the seat's others; its customers' messages reach no device of the seat, while an
 * unmuted chat's do (decrypted here from what the local push service of RFC 8030 received).
 * Another seat's chat is answered as one that does not exist, and nothing changes.
 */
let t: TestApp;
let push: LocalPushService;
let seat: SeatFixture;
let other: SeatFixture;
let base: string;
const clients: PushClient[] = [];

beforeAll(async () => {
  push = await new LocalPushService().start();
  t = await createTestApp({
    push: { hosts: ['localhost'], privateHosts: ['localhost'], caFile: push.caFile },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  seat = await createSeat(t, 'mute-seat');
  other = await createSeat(t, 'mute-other');
});
afterAll(async () => {
  clients.forEach((c) => c.close());
  await t?.close();
  await push?.close();
});

const MUTE = '/v1/seat/chat/mute';
const LIST = '/v1/seat/chat/mutedChats';

let inbound = 0;
/** A customer writes to the seat's account; waits until its notifications have been sent. */
async function customerWrites(s: SeatFixture, customer: string, content: string) {
  const res = await platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({
      id: `mute-${process.pid}-${++inbound}`,
      account: s.phones[0],
      customer,
      name: 'Wei Zhang',
      type: 'text',
      content,
    }),
  );
  expect(res.code).toBe('000000');
  await t.services.push.idle();
}

async function sessionOf(s: SeatFixture, customer: string): Promise<number> {
  const book = await t.call('/v1/seat/chat/addressBook', { keyword: customer }, s.token);
  return (book.data as { list: { session_id: number }[] }).list[0]!.session_id;
}

const mutedOf = async (s: SeatFixture) => (await t.call(LIST, {}, s.token)).data.session_ids;

describe('muted chats', () => {
  it('a muted chat is not notified; an unmuted one is, on the same device', async () => {
    const device = new PushDevice(`${push.origin}/sub/mute-${process.pid}`);
    expect((await t.call('/v1/seat/push/subscribe', device.subscription(), seat.token)).code).toBe(
      '000000',
    );
    const quiet = nextPhone('+4478');
    const loud = nextPhone('+4478');
    await customerWrites(seat, quiet, 'first');
    await customerWrites(seat, loud, 'first');
    const quietId = await sessionOf(seat, quiet);
    const loudId = await sessionOf(seat, loud);

    const muted = await t.call(MUTE, { session_id: quietId, muted: true }, seat.token);
    expect(muted.code).toBe('000000');
    expect(muted.data).toEqual({ session_id: quietId, muted: true });
    expect(await mutedOf(seat)).toEqual([quietId]);

    const path = new URL(device.endpoint).pathname;
    const received = (from: number) =>
      push.delivered
        .slice(from)
        .filter((d) => d.path === path)
        .map((d) => JSON.parse(device.decrypt(d.body)) as PushPayload);
    const at = push.delivered.length;
    await customerWrites(seat, quiet, 'to the muted chat');
    await customerWrites(seat, loud, 'to the other chat');
    expect(received(at).map((p) => [p.session_id, p.body])).toEqual([
      [loudId, 'to the other chat'],
    ]);

    // Unmuted, it is notified again.
    const unmuted = await t.call(MUTE, { session_id: quietId, muted: false }, seat.token);
    expect(unmuted.data).toEqual({ session_id: quietId, muted: false });
    expect(await mutedOf(seat)).toEqual([]);
    const later = push.delivered.length;
    await customerWrites(seat, quiet, 'after unmute');
    expect(received(later).map((p) => [p.session_id, p.body])).toEqual([[quietId, 'after unmute']]);
    await t.call('/v1/seat/push/unsubscribe', { endpoint: device.endpoint }, seat.token);
  });

  it("the seat's other consoles are told (session.muted); setting the same state again is answered quietly", async () => {
    const chat = await createChat(t.db, seat, {});
    const console2 = await PushClient.open(base, { token: seat.token });
    clients.push(console2);
    await console2.waitFor('ready');
    await t.call(MUTE, { session_id: chat.sessionId, muted: true }, seat.token);
    const event = await console2.waitForEvent(
      'session.muted',
      (d) => d.session_id === chat.sessionId,
    );
    expect(event.data).toEqual({ session_id: chat.sessionId, muted: true });
    const again = await t.call(MUTE, { session_id: chat.sessionId, muted: true }, seat.token);
    expect(again.data).toEqual({ session_id: chat.sessionId, muted: true });
    await t.call(MUTE, { session_id: chat.sessionId, muted: false }, seat.token);
    await console2.waitForEvent(
      'session.muted',
      (d) => d.session_id === chat.sessionId && !d.muted,
    );
    const told = console2
      .events()
      .filter(
        (e) =>
          e.type === 'session.muted' &&
          (e.data as { session_id: number }).session_id === chat.sessionId,
      );
    // Once per change: muting a muted chat pushed nothing.
    expect(told.map((e) => (e.data as { muted: boolean }).muted)).toEqual([true, false]);
  });

  it("another seat's chat is answered as a missing one, and stays unmuted for its seat", async () => {
    const theirs = await createChat(t.db, other, {});
    const refused = await t.call(MUTE, { session_id: theirs.sessionId, muted: true }, seat.token);
    const missing = await t.call(MUTE, { session_id: 2_000_000_000, muted: true }, seat.token);
    expect(refused.code).toBe('400001');
    expect({ code: refused.code, msg: refused.msg, data: refused.data }).toEqual({
      code: missing.code,
      msg: missing.msg,
      data: missing.data,
    });
    expect(await mutedOf(other)).toEqual([]);
    expect(await mutedOf(seat)).not.toContain(theirs.sessionId);
    // Unmuting someone else's chat is refused the same way.
    const unmute = await t.call(MUTE, { session_id: theirs.sessionId, muted: false }, seat.token);
    expect(unmute.code).toBe('400001');

    const bad = await t.call(MUTE, { session_id: theirs.sessionId, muted: 'yes' }, seat.token);
    expect(bad.code).toBe('100001');
    expect(bad.msg).toContain('muted');
    expect((await t.call(MUTE, { muted: true }, seat.token)).code).toBe('100001');
    expect((await t.call(MUTE, { session_id: 1, muted: true }, null)).code).toBe('400002');
  });

  it('a deleted chat leaves no mute behind', async () => {
    const chat = await createChat(t.db, seat, {});
    await t.call(MUTE, { session_id: chat.sessionId, muted: true }, seat.token);
    expect(await mutedOf(seat)).toContain(chat.sessionId);
    const del = await t.call(
      '/v1/seat/chat/delSession',
      { session_id: chat.sessionId },
      seat.token,
    );
    expect(del.code).toBe('000000');
    expect(await mutedOf(seat)).not.toContain(chat.sessionId);
    const left = await t.db
      .selectFrom('chat_mutes')
      .select('seat_id')
      .where('session_id', '=', chat.sessionId)
      .execute();
    expect(left).toEqual([]);
  });
});
