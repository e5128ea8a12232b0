import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_MESSAGES } from '@parley/protocol';
import { createSeat, PASSWORD, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { PushClient } from './ws-client.js';
import { authRepository } from '../src/modules/auth/auth.repository.js';
import {
  REVOCATION_CHECK_MS,
  REVOCATION_TRUST_MS,
  TokenCache,
} from '../src/modules/auth/token-cache.js';

const LOGOUT = '/v1/seat/chat/logout';

let t: TestApp;
let base: string;
const clients: PushClient[] = [];

beforeAll(async () => {
  // A heartbeat far beyond the test's patience: a socket that closes was closed by the logout.
  t = await createTestApp({
    realtime: { redisUrl: null, retentionHours: 24, heartbeatMs: 600_000, pollMs: 100 },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  clients.forEach((c) => c.close());
  await t?.close();
});

/** Another login of the same seat (another browser or device). */
async function loginAgain(seat: SeatFixture): Promise<string> {
  const res = await t.call('/v1/seat/chat/login', { account: seat.account, password: PASSWORD });
  expect(res.code).toBe('000000');
  return res.data.token;
}

/** An open push socket of `token`, past its `ready`. */
async function socketOf(token: string): Promise<PushClient> {
  const client = await PushClient.open(base, { token });
  clients.push(client);
  await client.waitFor('ready');
  return client;
}

const groupList = (token: string | null) => t.call('/v1/seat/chat/getGroupList', {}, token);

/** The socket is still open and hears the seat's changes. */
async function expectStillPushed(client: PushClient, token: string, groupName: string) {
  const res = await t.call('/v1/seat/chat/doGroup', { type: 'add', group_name: groupName }, token);
  expect(res.code).toBe('000000');
  await client.waitForEvent('groups.changed', (d) =>
    d.group_list.some((g: { group_name: string }) => g.group_name === groupName),
  );
  expect(client.closed).toBeNull();
}

/** The socket was told 400002 and closed. */
async function expectExpired(client: PushClient) {
  expect(await client.waitFor('error')).toMatchObject({ kind: 'error', code: '400002' });
  expect((await client.waitForClose()).code).toBe(4001);
}

async function liveTokenCount(seatId: number) {
  const rows = await t.db
    .selectFrom('tokens')
    .select('id')
    .where('seat_id', '=', seatId)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.length;
}

describe('logout', () => {
  it('ends the login of the token sent: it answers 400002 and its push socket closes at once', async () => {
    const seat = await createSeat(t, 'lo-one');
    const other = await loginAgain(seat);
    const socket = await socketOf(seat.token);
    const otherSocket = await socketOf(other);

    const res = await t.call(LOGOUT, {}, seat.token);
    expect(res.code).toBe('000000');
    expect(res.data).toEqual({ revoked: 1 });

    const after = await groupList(seat.token);
    expect(after.code).toBe('400002');
    expect((await t.call('/v1/seat/chat/token_login', { token: seat.token })).code).toBe('400002');
    await expectExpired(socket);
    // A new socket with the ended token is refused too.
    const again = await PushClient.open(base, { token: seat.token });
    clients.push(again);
    await expectExpired(again);

    // The seat's other login is untouched.
    expect((await groupList(other)).code).toBe('000000');
    await expectStillPushed(otherSocket, other, 'After one logout');
  });

  it('with all_devices ends every login of the seat and no other seat’s', async () => {
    const seat = await createSeat(t, 'lo-all');
    const second = await loginAgain(seat);
    const third = await loginAgain(seat);
    const neighbour = await createSeat(t, 'lo-neighbour');
    const sockets = [await socketOf(seat.token), await socketOf(second), await socketOf(third)];
    const neighbourSocket = await socketOf(neighbour.token);

    const res = await t.call(LOGOUT, { all_devices: true }, second);
    expect(res.code).toBe('000000');
    expect(res.data).toEqual({ revoked: 3 });

    for (const token of [seat.token, second, third]) {
      expect((await groupList(token)).code).toBe('400002');
    }
    for (const socket of sockets) await expectExpired(socket);
    expect(await liveTokenCount(seat.seatId)).toBe(0);

    expect((await groupList(neighbour.token)).code).toBe('000000');
    await expectStillPushed(neighbourSocket, neighbour.token, 'Neighbour still here');

    // Logging in again works as before.
    const fresh = await loginAgain(seat);
    expect((await groupList(fresh)).code).toBe('000000');
  });

  it('without a token, with an unknown or an ended token: 400002, and nothing changes', async () => {
    const seat = await createSeat(t, 'lo-no-token');
    const live = await liveTokenCount(seat.seatId);

    const missing = await t.call(LOGOUT, {}, null);
    expect(missing.status).toBe(200); // a coded answer (docs/api.md, HTTP status)
    expect(missing.code).toBe('400002');
    expect(missing.msg).toBe(OTHER_MESSAGES.missingAuth);
    const unknown = await t.call(LOGOUT, { all_devices: true }, 'not-a-token');
    expect(unknown.code).toBe('400002');
    const tooLong = await t.call(LOGOUT, { all_devices: true }, 'x'.repeat(5000));
    expect(tooLong.code).toBe('400002');

    const ended = await loginAgain(seat);
    expect((await t.call(LOGOUT, {}, ended)).code).toBe('000000');
    // Logging out twice, even "of every device", is refused like any call of an ended token.
    const twice = await t.call(LOGOUT, { all_devices: true }, ended);
    expect(twice.code).toBe('400002');

    expect(await liveTokenCount(seat.seatId)).toBe(live);
    expect((await groupList(seat.token)).code).toBe('000000');
  });

  it('a malformed body answers 100001 naming the field, and the login stays', async () => {
    const seat = await createSeat(t, 'lo-bad-body');
    const res = await t.call(LOGOUT, { all_devices: 'yes' }, seat.token);
    expect(res.code).toBe('100001');
    expect(res.msg).toBe('Parameter error: all_devices');
    const notJson = await t.raw({
      method: 'POST',
      url: LOGOUT,
      payload: '{"all_devices":',
      headers: { 'content-type': 'application/json', authorization: seat.token },
    });
    expect(notJson.code).toBe('100001');
    expect((await groupList(seat.token)).code).toBe('000000');
  });

  it('a login ended by another process, or a seat frozen by hand, is refused within a second though its token was cached', async () => {
    const revoked = await createSeat(t, 'ended-elsewhere');
    const frozen = await createSeat(t, 'frozen-by-hand');
    // Both tokens just checked, so cached by this instance.
    expect((await groupList(revoked.token)).code).toBe('000000');
    expect((await groupList(frozen.token)).code).toBe('000000');
    // What the CLI or another instance does: the database only, this instance is not told.
    await authRepository.revokeSeatTokens(t.db, revoked.seatId, Date.now());
    await t.db.updateTable('seats').set({ frozen: 1 }).where('id', '=', frozen.seatId).execute();
    await sleep(REVOCATION_TRUST_MS + REVOCATION_CHECK_MS);
    expect((await groupList(revoked.token)).code).toBe('400002');
    expect((await groupList(frozen.token)).code).toBe('200002');
    // Another seat's login lives on.
    const other = await createSeat(t, 'still-here');
    expect((await groupList(other.token)).code).toBe('000000');
  });

  it('a token read from the database before its login ended is not cached after the end', () => {
    const cache = new TokenCache();
    const now = Date.now();
    const token = { seatId: 7, account: 'seat-7', expiresAt: now + 60_000 };
    // A lookup begins, then the login ends (a logout here, a revocation seen in the count).
    for (const end of [
      () => cache.forgetSeat(7),
      () => cache.forgetToken('hash-7'),
      () => cache.clear(),
    ]) {
      const begun = cache.generation;
      end();
      cache.set('hash-7', token, now, begun);
      expect(cache.get('hash-7', now)).toBeNull();
    }
    // A lookup with nothing ended meanwhile is cached.
    cache.set('hash-7', token, now, cache.generation);
    expect(cache.get('hash-7', now)).toMatchObject({ seatId: 7 });
  });
});
