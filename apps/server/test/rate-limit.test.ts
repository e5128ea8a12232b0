import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS, SANDBOX_PATHS } from '@parley/protocol';
import { createSeat, PASSWORD, type SeatFixture } from './fixtures.js';
import { assertNoStack, createTestApp, type TestApp } from './helper.js';
import { signedHeaders } from '../src/channels/platform/platform-signature.js';

const LOGIN = '/v1/seat/chat/login';

let t: TestApp;
let seat: SeatFixture;
beforeAll(async () => {
  t = await createTestApp({ rateLimit: { public: 5, platform: 8 }, sandbox: 'on' });
  seat = await createSeat(t, 'limited');
});
afterAll(async () => t?.close());

async function login(remoteAddress: string, account: string, password = PASSWORD) {
  const res = await t.app.inject({
    method: 'POST',
    url: LOGIN,
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ account, password }),
  });
  assertNoStack(res.body);
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

const attemptRows = async () =>
  Number(
    (
      await t.db
        .selectFrom('login_attempts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('rate limits on the routes that need no token', () => {
  it('an address past its logins per minute gets 500003 and Retry-After; nothing is checked', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await login('198.51.100.1', `nobody-${i}`)).body.code).toBe('200001');
    }
    const rows = await attemptRows();
    const over = await login('198.51.100.1', 'limited');
    expect(over.status).toBe(200);
    expect(over.body).toMatchObject({ code: '500003', msg: 'Operation count exceeded limit' });
    expect(over.body.data.retry_after_ms).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Refused before the password was looked at: no attempt recorded, no token made.
    expect(await attemptRows()).toBe(rows);
  });

  it('another address is counted apart', async () => {
    const other = await login('198.51.100.2', 'limited');
    expect(other.body.code).toBe('000000');
  });

  it("a seat's calls with a token are not limited", async () => {
    for (let i = 0; i < 12; i++) {
      const res = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
      expect(res.code).toBe('000000');
    }
  });

  it('the platform API answers HTTP 429 with Retry-After past its requests per minute', async () => {
    const body = JSON.stringify({ account: seat.phones[0], msg_id: 1, status: 'read' });
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: PLATFORM_PATHS.receipt,
        remoteAddress: '198.51.100.3',
        headers: { 'content-type': 'application/json', ...signedHeaders('forged', body) },
        payload: body,
      });
    for (let i = 0; i < 8; i++) expect((await post()).statusCode).toBe(403);
    const over = await post();
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: '500003' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("the sandbox's calls are limited per address too", async () => {
    const get = () =>
      t.app.inject({ method: 'GET', url: SANDBOX_PATHS.accounts, remoteAddress: '198.51.100.4' });
    for (let i = 0; i < 5; i++) expect((await get()).json().code).toBe('000000');
    const over = await get();
    expect(over.statusCode).toBe(200);
    expect(over.json()).toMatchObject({ code: '500003' });
  });
});
