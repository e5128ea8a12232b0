import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runCli, type CliIo } from '../src/cli/run.js';
import { DEMO_ADMIN_ACCOUNT, DEMO_ADMIN_PASSWORD, loadDemo } from '../src/demo/demo.js';
import { createSeat, nextPhone } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { ADMIN_PASSWORD, AdminPushClient, adminCall, createAdmin } from './admin-helpers.js';

let t: TestApp;
let base: string;
let token: string;
const sockets: AdminPushClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = await createAdmin(t, 'auditor');
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await t?.close();
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const status = await runCli(argv, io, t.config);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

describe('audit/list', () => {
  it('lists every administrator action newest first, filtered by actor, action, target and time, keyset-paged', async () => {
    const since = Date.now();
    const created = await adminCall(
      t,
      '/v1/admin/seats/create',
      { account: 'audited-op', password: 'long-enough1' },
      token,
    );
    const seatId = created.data.seat_id;
    await adminCall(t, '/v1/admin/seats/update', { seat_id: seatId, nickname: 'Audited' }, token);
    await adminCall(t, '/v1/admin/seats/freeze', { seat_id: seatId, frozen: true }, token);

    const bySeat = await adminCall(
      t,
      '/v1/admin/audit/list',
      { target_type: 'seat', target_id: seatId },
      token,
    );
    expect(bySeat.data.list.map((e) => e.action)).toEqual([
      'seat.freeze',
      'seat.update',
      'seat.create',
    ]);
    expect(bySeat.data.total).toBe(3);
    const update = bySeat.data.list[1]!;
    expect(update).toMatchObject({
      actor_type: 'admin',
      actor: 'auditor',
      target: 'audited-op',
      before: { nickname: 'audited-op' },
      after: { nickname: 'Audited' },
    });
    expect(update.at).toBeGreaterThanOrEqual(since);

    const byAction = await adminCall(
      t,
      '/v1/admin/audit/list',
      { action: 'seat.freeze', actor: 'auditor' },
      token,
    );
    expect(byAction.data.list.map((e) => e.target_id)).toEqual([seatId]);
    const none = await adminCall(
      t,
      '/v1/admin/audit/list',
      { action: 'seat.freeze', until: since },
      token,
    );
    expect(none.data.list).toEqual([]);

    const page = await adminCall(
      t,
      '/v1/admin/audit/list',
      { target_type: 'seat', target_id: seatId, page_size: 2 },
      token,
    );
    expect(page.data.list).toHaveLength(2);
    const rest = await adminCall(
      t,
      '/v1/admin/audit/list',
      { target_type: 'seat', target_id: seatId, page_size: 2, cursor: page.data.next_cursor! },
      token,
    );
    expect(rest.data.list.map((e) => e.action)).toEqual(['seat.create']);
    expect(rest.data.next_cursor).toBeNull();
  });

  it('refuses an unknown action, a bad cursor and a bad time with 100001', async () => {
    for (const body of [
      { action: 'seat.delete' },
      { cursor: '!!' },
      { since: -1 },
      { target_type: 'group' },
    ]) {
      expect((await adminCall(t, '/v1/admin/audit/list', body, token)).code).toBe('100001');
    }
  });

  it('tells an open admin console that the lists changed when an action is taken', async () => {
    const socket = await AdminPushClient.open(base, { token });
    sockets.push(socket);
    await socket.waitForKind('ready');
    await adminCall(
      t,
      '/v1/admin/seats/create',
      { account: 'pushed-op', password: 'long-enough1' },
      token,
    );
    await socket.until(
      () =>
        socket.frames.find(
          (f) =>
            f.kind === 'event' &&
            f.type === 'admin.changed' &&
            f.data.scopes.includes('seats') &&
            f.data.scopes.includes('audit'),
        ),
      'admin.changed',
    );
  });
});

describe('the CLI goes through the same services, audited as "cli"', () => {
  it('admin:create, admin:list and admin:reset-password', async () => {
    const created = await cli('admin:create', 'cli-admin', '--password', 'cli-admin-pass');
    expect(created.status).toBe(EXIT.OK);
    expect(created.out).toMatch(/Created administrator cli-admin/);
    expect((await cli('admin:create', 'cli-admin', '--password', 'cli-admin-pass')).status).toBe(
      EXIT.EXISTS,
    );
    expect((await cli('admin:create', 'short-one', '--password', 'short')).status).toBe(
      EXIT.INVALID,
    );
    expect((await cli('admin:list')).out).toMatch(/cli-admin/);
    const login = await adminCall(t, '/v1/admin/login', {
      account: 'cli-admin',
      password: 'cli-admin-pass',
    });
    expect(login.code).toBe('000000');

    const reset = await cli('admin:reset-password', 'cli-admin', '--password', 'another-pass-2');
    expect(reset.status).toBe(EXIT.OK);
    // Its logins ended; the new password works.
    expect((await adminCall(t, '/v1/admin/me', {}, login.data.token)).code).toBe('400002');
    expect(
      (await adminCall(t, '/v1/admin/login', { account: 'cli-admin', password: 'another-pass-2' }))
        .code,
    ).toBe('000000');
    expect(
      (await cli('admin:reset-password', 'nobody', '--password', 'another-pass-2')).status,
    ).toBe(EXIT.NOT_FOUND);

    const audit = await adminCall(
      t,
      '/v1/admin/audit/list',
      { target_type: 'admin', actor: 'cli' },
      token,
    );
    expect(audit.data.list.map((e) => [e.action, e.target, e.actor_type])).toEqual(
      expect.arrayContaining([
        ['admin.reset_password', 'cli-admin', 'cli'],
        ['admin.create', 'cli-admin', 'cli'],
      ]),
    );
  });

  it("seat and account commands are audited as cli and show in the console's lists", async () => {
    expect((await cli('seat:create', 'cli-op', '--password', 'cli-op-pass1')).status).toBe(EXIT.OK);
    expect((await cli('seat:rename', 'cli-op', '--nickname', 'CLI Operator')).status).toBe(EXIT.OK);
    const phone = nextPhone('+1777');
    expect((await cli('account:add', phone, '--label', 'cli line')).status).toBe(EXIT.OK);
    expect((await cli('account:assign', phone, 'cli-op')).status).toBe(EXIT.OK);
    expect((await cli('account:label', phone, '--label', 'renamed line')).status).toBe(EXIT.OK);
    expect((await cli('account:channel', phone, 'sandbox')).status).toBe(EXIT.OK);
    expect((await cli('seat:freeze', 'cli-op')).status).toBe(EXIT.OK);

    const seats = await adminCall(t, '/v1/admin/seats/list', { keyword: 'cli-op' }, token);
    expect(seats.data.list[0]).toMatchObject({
      nickname: 'CLI Operator',
      frozen: true,
      phone_accounts: [phone],
    });
    const accounts = await adminCall(t, '/v1/admin/accounts/list', { keyword: phone }, token);
    expect(accounts.data.list[0]).toMatchObject({
      label: 'renamed line',
      channel: 'sandbox',
      seat_account: 'cli-op',
    });
    const audit = await adminCall(
      t,
      '/v1/admin/audit/list',
      { actor: 'cli', page_size: 200 },
      token,
    );
    const actions = audit.data.list
      .filter((e) => e.target === 'cli-op' || e.target === phone)
      .map((e) => e.action);
    expect(actions).toEqual([
      'seat.freeze',
      'account.set_channel',
      'account.update',
      'account.assign',
      'account.create',
      'seat.update',
      'seat.create',
    ]);
  });

  it('a change made by another process (the CLI) reaches an open admin console', async () => {
    const seat = await createSeat(t, 'cli-inbound');
    const socket = await AdminPushClient.open(base, { token });
    sockets.push(socket);
    await socket.waitForKind('ready');
    const first = await socket.overview(() => true);
    const before = first.seats.find((s) => s.seat_id === seat.seatId)!.messages_in_today;
    expect(
      (await cli('chat:receive', seat.phones[0]!, nextPhone('+4481'), 'hello from the CLI')).status,
    ).toBe(EXIT.OK);
    await socket.overview(
      (o) => o.seats.find((s) => s.seat_id === seat.seatId)!.messages_in_today === before + 1,
    );
  });
});

describe('the demo workspace', () => {
  it('creates the demo administrator, who signs in', async () => {
    const result = await loadDemo(t.db);
    expect(result.loaded).toBe(true);
    const login = await adminCall(t, '/v1/admin/login', {
      account: DEMO_ADMIN_ACCOUNT,
      password: DEMO_ADMIN_PASSWORD,
    });
    expect(login.code).toBe('000000');
    expect(DEMO_ADMIN_PASSWORD).not.toBe(ADMIN_PASSWORD);
    // Loading again (already loaded) adds nothing.
    expect((await loadDemo(t.db)).loaded).toBe(false);
    expect(
      (await t.services.adminAuth.list()).filter((a) => a.account === DEMO_ADMIN_ACCOUNT),
    ).toHaveLength(1);
  });
});
