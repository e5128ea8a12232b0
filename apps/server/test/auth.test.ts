import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_MESSAGES } from '@parley/protocol';
import { createSeat, PASSWORD } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginMaxFailures: 3 });
});
afterAll(async () => t?.close());

const LOGIN = '/v1/seat/chat/login';

describe('login', () => {
  it('answers the user info with a token; the account is trimmed', async () => {
    const seat = await createSeat(t, 'alice', 2);
    const res = await t.call(LOGIN, { account: '  alice ', password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.code).toBe('000000');
    expect(res.msg).toBe('success');
    expect(res.data.account).toBe('alice');
    expect(res.data.seat_id).toBe(seat.seatId);
    expect(res.data.phone_accounts.map((a) => a.send_phone)).toEqual(seat.phones);
    expect(res.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.data.expires_at).toBeGreaterThan(Date.now() + 167 * 3600_000);
    // A second login gives another token; both work.
    const who = await t.call('/v1/seat/chat/getGroupList', {}, res.data.token);
    expect(who.code).toBe('000000');
  });

  it('stores argon2id hashes and only token hashes', async () => {
    const seat = await t.db
      .selectFrom('seats')
      .select('password_hash')
      .where('account', '=', 'alice')
      .executeTakeFirstOrThrow();
    expect(seat.password_hash.startsWith('$argon2id$')).toBe(true);
    const login = await t.call(LOGIN, { account: 'alice', password: PASSWORD });
    const rows = await t.db.selectFrom('tokens').select('token_hash').execute();
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
    expect(rows.some((r) => r.token_hash === login.data.token)).toBe(false);
  });

  it('100001 names the missing or empty field and changes nothing', async () => {
    const before = await t.db.selectFrom('tokens').select('id').execute();
    const noPassword = await t.call(LOGIN, { account: 'alice' });
    expect(noPassword.status).toBe(200);
    expect(noPassword.code).toBe('100001');
    expect(noPassword.msg).toBe('Parameter error: password');
    expect(noPassword.data).toEqual({ fields: [expect.objectContaining({ path: 'password' })] });
    const blank = await t.call(LOGIN, { account: '   ', password: 'x' });
    expect(blank.msg).toBe('Parameter error: account');
    const wrongType = await t.call(LOGIN, { account: 12, password: 'x' });
    expect(wrongType.msg).toBe('Parameter error: account');
    expect((await t.db.selectFrom('tokens').select('id').execute()).length).toBe(before.length);
  });

  it('200001 for an unknown account, 100005 for a wrong password', async () => {
    const unknown = await t.call(LOGIN, { account: 'nobody', password: 'whatever' });
    expect(unknown.code).toBe('200001');
    expect(unknown.msg).toBe('User does not exist');
    await createSeat(t, 'bob');
    const wrong = await t.call(LOGIN, { account: 'bob', password: 'not-the-password' });
    expect(wrong.code).toBe('100005');
    expect(wrong.msg).toBe('Password error');
    expect(wrong.status).toBe(200);
  });

  it('throttles an account after the configured failures (500003), until the window passes', async () => {
    await createSeat(t, 'carol');
    for (let i = 0; i < 3; i++) {
      expect((await t.call(LOGIN, { account: 'carol', password: 'wrong-pass' })).code).toBe(
        '100005',
      );
    }
    const blocked = await t.call(LOGIN, { account: 'carol', password: PASSWORD });
    expect(blocked.code).toBe('500003');
    expect(blocked.msg).toBe('Operation count exceeded limit');
    expect(blocked.status).toBe(200);
    // Another account is not affected.
    expect((await t.call(LOGIN, { account: 'alice', password: PASSWORD })).code).toBe('000000');
    // The window passes: the failures age out.
    await t.db
      .updateTable('login_attempts')
      .set({ window_start: Date.now() - 901_000 })
      .where('key', '=', 'account:carol')
      .execute();
    expect((await t.call(LOGIN, { account: 'carol', password: PASSWORD })).code).toBe('000000');
  });

  it('200002 for a frozen seat, at login and for its tokens; unfreezing restores login', async () => {
    const seat = await createSeat(t, 'dave');
    await t.services.seats.setFrozen('dave', true);
    const frozen = await t.call(LOGIN, { account: 'dave', password: PASSWORD });
    expect(frozen.code).toBe('200002');
    expect(frozen.msg).toBe('Cannot login, account is frozen');
    // Its open console is told the account is frozen, not that its login expired.
    const call = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
    expect(call.code).toBe('200002');
    expect(call.msg).toBe('Cannot login, account is frozen');
    await t.services.seats.setFrozen('dave', false);
    // The freeze ended that login: once thawed, its old token has expired.
    expect((await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).code).toBe('400002');
    expect((await t.call(LOGIN, { account: 'dave', password: PASSWORD })).code).toBe('000000');
  });
});

describe('tokens', () => {
  it('missing Authorization: 400002 with the missing-auth message', async () => {
    const res = await t.call('/v1/seat/chat/getGroupList', {});
    expect(res.code).toBe('400002');
    expect(res.status).toBe(200);
    expect(res.msg).toBe(OTHER_MESSAGES.missingAuth);
    const blank = await t.call('/v1/seat/chat/getGroupList', {}, 'Bearer   ');
    expect(blank.msg).toBe(OTHER_MESSAGES.missingAuth);
  });

  it('accepts a raw token and "Bearer <token>"; garbage answers 400002', async () => {
    const seat = await createSeat(t, 'erin');
    expect((await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).code).toBe('000000');
    expect((await t.call('/v1/seat/chat/getGroupList', {}, `Bearer ${seat.token}`)).code).toBe(
      '000000',
    );
    for (const garbage of ['garbage', 'Bearer x.y.z', 'a'.repeat(300)]) {
      expect((await t.call('/v1/seat/chat/getGroupList', {}, garbage)).code).toBe('400002');
    }
  });

  it('an expired token answers 400002', async () => {
    const seat = await createSeat(t, 'frank');
    await t.db
      .updateTable('tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('seat_id', '=', seat.seatId)
      .execute();
    const res = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
    expect(res.code).toBe('400002');
    expect((await t.call('/v1/seat/chat/token_login', { token: seat.token })).code).toBe('400002');
  });

  it('a password reset revokes the tokens (400002)', async () => {
    const seat = await createSeat(t, 'grace');
    await t.services.seats.resetPassword('grace', 'another-password');
    expect((await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).code).toBe('400002');
    expect((await t.call(LOGIN, { account: 'grace', password: PASSWORD })).code).toBe('100005');
    expect((await t.call(LOGIN, { account: 'grace', password: 'another-password' })).code).toBe(
      '000000',
    );
  });

  it('token_login answers the user info for a valid token, 400002 otherwise', async () => {
    const seat = await createSeat(t, 'heidi', 1);
    const res = await t.call('/v1/seat/chat/token_login', { token: seat.token });
    expect(res.code).toBe('000000');
    expect(res.data.token).toBe(seat.token);
    expect(res.data.account).toBe('heidi');
    expect(res.data.phone_accounts).toHaveLength(1);
    expect((await t.call('/v1/seat/chat/token_login', { token: 'nope' })).code).toBe('400002');
    const empty = await t.call('/v1/seat/chat/token_login', {});
    expect(empty.code).toBe('100001');
    expect(empty.msg).toBe('Parameter error: token');
  });
});

describe('the login throttle under parallel guesses', () => {
  let p: TestApp;
  beforeAll(async () => {
    p = await createTestApp({ loginMaxFailures: 5, loginMaxFailuresPerIp: 8 });
    await createSeat(p, 'erin');
  });
  afterAll(async () => p?.close());

  const guess = (account: string, password: string, remoteAddress = '203.0.113.7') =>
    p.app.inject({
      method: 'POST',
      url: LOGIN,
      remoteAddress,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ account, password }),
    });

  it('40 guesses at once: only the allowed 5 are checked, the rest refused 500003', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => guess('erin', `guess-${i}`, `198.51.100.${i}`)),
    );
    const codes = answers.map((a) => (a.json() as { code: string }).code);
    expect(codes.filter((c) => c === '100005')).toHaveLength(5);
    expect(codes.filter((c) => c === '500003')).toHaveLength(35);
    // The right password too, until the window passes.
    expect((await guess('erin', PASSWORD, '198.51.100.200')).json()).toMatchObject({
      code: '500003',
    });
  });

  it('one address spraying many accounts is refused past its own limit; others are not', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => guess(`sprayed-${i}`, 'password1')),
    );
    const codes = answers.map((a) => (a.json() as { code: string }).code);
    expect(codes.filter((c) => c === '200001')).toHaveLength(8);
    expect(codes.filter((c) => c === '500003')).toHaveLength(4);
    expect((await guess('sprayed-99', 'password1', '192.0.2.50')).json()).toMatchObject({
      code: '200001',
    });
  });

  it('ended windows are pruned: sprayed names do not pile up', async () => {
    const rows = () => p.db.selectFrom('login_attempts').select('key').execute();
    expect((await rows()).length).toBeGreaterThan(10);
    await p.db
      .updateTable('login_attempts')
      .set({ window_start: Date.now() - 901_000 })
      .execute();
    await guess('one-more', 'password1', '192.0.2.51');
    expect((await rows()).map((r) => r.key).sort()).toEqual(['account:one-more', 'ip:192.0.2.51']);
  });
});
