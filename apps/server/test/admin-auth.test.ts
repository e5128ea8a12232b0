import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CALL_PATHS, ADMIN_CALLS, CALL_PATHS, CALLS } from '@parley/protocol';
import { createSeat, PASSWORD, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { PushClient } from './ws-client.js';
import { ADMIN_PASSWORD, AdminPushClient, adminCall, createAdmin } from './admin-helpers.js';

let t: TestApp;
let base: string;
let seat: SeatFixture;
let adminToken: string;
const sockets: { close(): void }[] = [];

beforeAll(async () => {
  // A heartbeat beyond the tests' patience: a socket that closes was closed by the action.
  t = await createTestApp({
    realtime: { redisUrl: null, retentionHours: 24, heartbeatMs: 600_000, pollMs: 100 },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  seat = await createSeat(t, 'boundary-seat');
  adminToken = await createAdmin(t, 'boss');
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await t?.close();
});

describe('admin login', () => {
  it('signs an administrator in with its own token, and me says who it is', async () => {
    const res = await adminCall(t, '/v1/admin/login', {
      account: 'boss',
      password: ADMIN_PASSWORD,
    });
    expect(res.code).toBe('000000');
    expect(res.data.account).toBe('boss');
    expect(res.data.expires_at).toBeGreaterThan(Date.now() + 167 * 3600_000);
    const me = await adminCall(t, '/v1/admin/me', {}, res.data.token);
    expect(me.data).toMatchObject({ account: 'boss', admin_id: res.data.admin_id });
  });

  it('refuses a wrong password, an unknown account and a bad body, with their codes', async () => {
    expect(
      (await adminCall(t, '/v1/admin/login', { account: 'boss', password: 'wrong-one' })).code,
    ).toBe('100005');
    expect(
      (await adminCall(t, '/v1/admin/login', { account: 'nobody', password: 'whatever1' })).code,
    ).toBe('200001');
    const bad = await adminCall(t, '/v1/admin/login', { account: 'boss' });
    expect(bad.code).toBe('100001');
    expect(bad.data).toMatchObject({ fields: [{ path: 'password' }] });
  });

  it("does not open with a seat's account and password (accounts are apart)", async () => {
    const res = await adminCall(t, '/v1/admin/login', {
      account: seat.account,
      password: PASSWORD,
    });
    expect(res.code).toBe('200001');
  });

  it('throttles failed logins like seats: 500003 after the limit, even with the right password', async () => {
    await createAdmin(t, 'guessed');
    for (let i = 0; i < t.config.loginMaxFailures; i++) {
      expect(
        (await adminCall(t, '/v1/admin/login', { account: 'guessed', password: `nope-${i}xx` }))
          .code,
      ).toBe('100005');
    }
    const locked = await adminCall(t, '/v1/admin/login', {
      account: 'guessed',
      password: ADMIN_PASSWORD,
    });
    expect(locked.code).toBe('500003');
    // The seats' throttle is another one: the seat still signs in.
    expect(
      (await t.call('/v1/seat/chat/login', { account: seat.account, password: PASSWORD })).code,
    ).toBe('000000');
  });

  it('logout ends the token (400002 from then on) and closes its push socket', async () => {
    const login = await adminCall(t, '/v1/admin/login', {
      account: 'boss',
      password: ADMIN_PASSWORD,
    });
    const token = login.data.token;
    const socket = await AdminPushClient.open(base, { token });
    sockets.push(socket);
    await socket.waitForKind('ready');
    const out = await adminCall(t, '/v1/admin/logout', {}, token);
    expect(out.data).toEqual({ revoked: 1 });
    expect((await socket.waitForClose()).code).toBe(4001);
    expect((await adminCall(t, '/v1/admin/me', {}, token)).code).toBe('400002');
    // Another login of the same administrator is untouched.
    expect((await adminCall(t, '/v1/admin/me', {}, adminToken)).code).toBe('000000');
  });
});

describe('the authorisation boundary', () => {
  const adminAuthed = ADMIN_CALL_PATHS.filter((p) => ADMIN_CALLS[p].auth);
  const seatAuthed = CALL_PATHS.filter((p) => CALLS[p].auth);

  it('covers every admin call but login, and every seat call but the two logins', () => {
    expect(adminAuthed).toHaveLength(ADMIN_CALL_PATHS.length - 1);
    expect(seatAuthed.length).toBe(CALL_PATHS.length - 2);
  });

  it.each(adminAuthed)(
    "refuses a seat's token on %s with 400002, changing nothing",
    async (path) => {
      const before = await t.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const res = await adminCall(t, path, {}, seat.token);
      expect(res.code).toBe('400002');
      expect(res.data).toBeNull();
      expect((await adminCall(t, path, {}, null)).code).toBe('400002');
      const after = await t.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    },
  );

  it.each(seatAuthed)('refuses an admin token on %s with 400002', async (path) => {
    const res = await t.call(path, {}, adminToken);
    expect(res.code).toBe('400002');
    expect(res.data).toBeNull();
  });

  it('refuses an admin token on the upload and the seat push socket, a seat token on the admin socket', async () => {
    const upload = await t.raw({
      method: 'POST',
      url: '/v1/seat/chat/upload',
      headers: { authorization: adminToken, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(upload.code).toBe('400002');

    const seatSocket = await PushClient.open(base, { token: adminToken });
    sockets.push(seatSocket);
    expect(await seatSocket.waitFor('error')).toMatchObject({ code: '400002' });
    expect((await seatSocket.waitForClose()).code).toBe(4001);

    const adminSocket = await AdminPushClient.open(base, { token: seat.token });
    sockets.push(adminSocket);
    expect(await adminSocket.waitForKind('error')).toMatchObject({ code: '400002' });
    expect((await adminSocket.waitForClose()).code).toBe(4001);
  });

  it('answers the seat and the admin token each on its own side', async () => {
    expect((await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).code).toBe('000000');
    expect((await adminCall(t, '/v1/admin/me', {}, adminToken)).code).toBe('000000');
  });
});
