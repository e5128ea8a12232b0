import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChat, createSeat, nextPhone } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { adminCall, createAdmin } from './admin-helpers.js';
import { telegramConfigFor, TelegramBotApiServer } from './telegram-bot-api-server.js';

let tg: TelegramBotApiServer;
let t: TestApp;
let token: string;

beforeAll(async () => {
  tg = await new TelegramBotApiServer().start();
  t = await createTestApp({ telegram: telegramConfigFor(tg.url) });
  token = await createAdmin(t, 'account-admin');
});
afterAll(async () => {
  await t?.close();
  await tg?.stop();
});

const accountCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('phone_accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const auditRows = (targetId: number) =>
  t.db
    .selectFrom('audit_log')
    .selectAll()
    .where('target_type', '=', 'account')
    .where('target_id', '=', targetId)
    .orderBy('id')
    .execute();

describe('accounts/create and list', () => {
  it('registers an account assigned to a seat at once; the seat sees it at login; audited', async () => {
    const seat = await createSeat(t, 'acct-owner', 0);
    const phone = nextPhone('+1666');
    const res = await adminCall(
      t,
      '/v1/admin/accounts/create',
      { send_phone: phone, label: 'Desk A', channel: 'sandbox', seat_id: seat.seatId },
      token,
    );
    expect(res.code).toBe('000000');
    expect(res.data).toMatchObject({
      send_phone: phone,
      label: 'Desk A',
      channel: 'sandbox',
      seat_id: seat.seatId,
      seat_account: 'acct-owner',
      chats: 0,
      telegram: null,
    });
    const login = await t.call('/v1/seat/chat/login', {
      account: 'acct-owner',
      password: 'correct-horse-1',
    });
    expect(login.data.phone_accounts).toEqual([
      { send_phone: phone, label: 'Desk A', channel: 'sandbox' },
    ]);
    const [row] = await auditRows(res.data.account_id);
    expect(row).toMatchObject({ action: 'account.create', actor: 'account-admin', before: null });
    expect(JSON.parse(row!.after!)).toMatchObject({ send_phone: phone, seat_id: seat.seatId });
  });

  it.each([
    ['a bad number', { send_phone: '12ab' }, '400005'],
    ['a bad channel', { send_phone: '+16660000001', channel: 'telegram' }, '100001'],
    ['a too long label', { send_phone: '+16660000002', label: 'x'.repeat(65) }, '100001'],
    ['an unknown seat', { send_phone: '+16660000003', seat_id: 999_999 }, '200001'],
  ])('refuses %s with its code and registers nothing', async (_n, body, code) => {
    const before = await accountCount();
    expect((await adminCall(t, '/v1/admin/accounts/create', body, token)).code).toBe(code);
    expect(await accountCount()).toBe(before);
  });

  it('refuses a number already registered (500002), also when two registrations race', async () => {
    const phone = nextPhone('+1667');
    const answers = await Promise.all(
      [1, 2].map(() => adminCall(t, '/v1/admin/accounts/create', { send_phone: phone }, token)),
    );
    expect(answers.map((a) => a.code).sort()).toEqual(['000000', '500002']);
    expect(
      (await adminCall(t, '/v1/admin/accounts/create', { send_phone: phone }, token)).code,
    ).toBe('500002');
  });

  it('lists by number with its chats, filtered by seat, by unassigned and by channel, keyset-paged', async () => {
    const seat = await createSeat(t, 'list-owner', 2);
    await createChat(t.db, seat, { sendPhone: seat.phones[1] });
    await createChat(t.db, seat, { sendPhone: seat.phones[1] });
    const bySeat = await adminCall(t, '/v1/admin/accounts/list', { seat_id: seat.seatId }, token);
    expect(bySeat.data.list.map((a) => [a.send_phone, a.chats])).toEqual([
      [seat.phones[0], 0],
      [seat.phones[1], 2],
    ]);
    const page = await adminCall(
      t,
      '/v1/admin/accounts/list',
      { seat_id: seat.seatId, page_size: 1 },
      token,
    );
    expect(page.data.list).toHaveLength(1);
    const next = await adminCall(
      t,
      '/v1/admin/accounts/list',
      { seat_id: seat.seatId, page_size: 1, cursor: page.data.next_cursor! },
      token,
    );
    expect(next.data.list[0]!.send_phone).toBe(seat.phones[1]);
    const free = nextPhone('+1668');
    await t.services.accounts.add({ phone: free });
    const unassigned = await adminCall(t, '/v1/admin/accounts/list', { unassigned: true }, token);
    expect(unassigned.data.list.map((a) => a.send_phone)).toContain(free);
    expect(unassigned.data.list.every((a) => a.seat_id === null)).toBe(true);
    const sandbox = await adminCall(t, '/v1/admin/accounts/list', { channel: 'sandbox' }, token);
    expect(sandbox.data.list.every((a) => a.channel === 'sandbox')).toBe(true);
  });
});

describe('accounts/update and assign', () => {
  it('labels an account (audited before/after) and refuses an unknown one with 400001', async () => {
    const seat = await createSeat(t, 'label-owner');
    const [acct] = (await adminCall(t, '/v1/admin/accounts/list', { seat_id: seat.seatId }, token))
      .data.list;
    const res = await adminCall(
      t,
      '/v1/admin/accounts/update',
      { account_id: acct!.account_id, label: '  Front desk ' },
      token,
    );
    expect(res.data.label).toBe('Front desk');
    const rows = await auditRows(acct!.account_id);
    const update = rows.find((r) => r.action === 'account.update')!;
    expect(JSON.parse(update.before!).label).toBe('line 1');
    expect(JSON.parse(update.after!).label).toBe('Front desk');
    expect(
      (await adminCall(t, '/v1/admin/accounts/update', { account_id: 999_999, label: 'x' }, token))
        .code,
    ).toBe('400001');
  });

  it('moves an account to another seat with its chats: the old seat loses them, the new one lists them', async () => {
    const from = await createSeat(t, 'move-from');
    const to = await createSeat(t, 'move-to', 0);
    const chat = await createChat(t.db, from, { unread: 1 });
    const [acct] = (await adminCall(t, '/v1/admin/accounts/list', { seat_id: from.seatId }, token))
      .data.list;
    const res = await adminCall(
      t,
      '/v1/admin/accounts/assign',
      { account_id: acct!.account_id, seat_id: to.seatId },
      token,
    );
    expect(res.data).toMatchObject({
      moved_chats: 1,
      account: { seat_id: to.seatId, seat_account: 'move-to', chats: 1 },
    });
    const login = await t.call('/v1/seat/chat/login', {
      account: 'move-to',
      password: 'correct-horse-1',
    });
    const groups = await t.call('/v1/seat/chat/getGroupList', {}, login.data.token);
    const ungrouped = groups.data.group_list.find((g) => g.group_type === 'ungrouped')!;
    const info = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: ungrouped.group_id },
      login.data.token,
    );
    expect(info.data.account_list.map((s) => s.session_id)).toEqual([chat.sessionId]);
    const old = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: from.groups.ungrouped },
      from.token,
    );
    expect(old.data.account_list).toEqual([]);
    // The last assignment (the first was the fixture's, as the CLI does it).
    const move = (await auditRows(acct!.account_id))
      .filter((r) => r.action === 'account.assign')
      .at(-1)!;
    expect(JSON.parse(move.before!).seat_id).toBe(from.seatId);
    expect(JSON.parse(move.after!)).toMatchObject({ seat_id: to.seatId, moved_chats: 1 });
  });

  it('refuses an unknown seat (200001) or account (400001), moving nothing', async () => {
    const seat = await createSeat(t, 'stay-put');
    const [acct] = (await adminCall(t, '/v1/admin/accounts/list', { seat_id: seat.seatId }, token))
      .data.list;
    expect(
      (
        await adminCall(
          t,
          '/v1/admin/accounts/assign',
          { account_id: acct!.account_id, seat_id: 999_999 },
          token,
        )
      ).code,
    ).toBe('200001');
    expect(
      (
        await adminCall(
          t,
          '/v1/admin/accounts/assign',
          { account_id: 999_999, seat_id: seat.seatId },
          token,
        )
      ).code,
    ).toBe('400001');
    const still = await adminCall(t, '/v1/admin/accounts/list', { seat_id: seat.seatId }, token);
    expect(still.data.list).toHaveLength(1);
  });
});

describe('accounts/setChannel and telegramStatus', () => {
  it('binds a Telegram bot (checked with Telegram), shows its long-poll, and unbinds it by a plain channel', async () => {
    const seat = await createSeat(t, 'tg-owner');
    const [acct] = (await adminCall(t, '/v1/admin/accounts/list', { seat_id: seat.seatId }, token))
      .data.list;
    const botToken = tg.createBot('admin_console_bot');
    const res = await adminCall(
      t,
      '/v1/admin/accounts/setChannel',
      { account_id: acct!.account_id, channel: 'telegram', bot_token: botToken },
      token,
    );
    expect(res.code).toBe('000000');
    expect(res.data.channel).toBe('telegram');
    expect(res.data.telegram).toMatchObject({ bot_username: 'admin_console_bot' });
    expect(res.data.telegram!.token).not.toBe(botToken);
    await vi.waitFor(
      async () => {
        const status = await adminCall(
          t,
          '/v1/admin/accounts/telegramStatus',
          { account_id: acct!.account_id },
          token,
        );
        expect(status.data).toMatchObject({ state: 'polling', last_error: null });
      },
      { timeout: 10_000, interval: 50 },
    );
    tg.failNext('getUpdates', { error_code: 502, description: 'Bad Gateway' });
    await vi.waitFor(
      async () => {
        const status = await adminCall(
          t,
          '/v1/admin/accounts/telegramStatus',
          { account_id: acct!.account_id },
          token,
        );
        expect(status.data).toMatchObject({ last_error: '502 Bad Gateway' });
      },
      { timeout: 10_000, interval: 50 },
    );
    const rows = await auditRows(acct!.account_id);
    const bind = rows.find((r) => r.action === 'account.set_channel')!;
    expect(JSON.parse(bind.after!)).toMatchObject({
      channel: 'telegram',
      bot_username: 'admin_console_bot',
    });
    expect(bind.after).not.toContain(botToken);

    const plain = await adminCall(
      t,
      '/v1/admin/accounts/setChannel',
      { account_id: acct!.account_id, channel: 'platform' },
      token,
    );
    expect(plain.data).toMatchObject({ channel: 'platform', telegram: null });
    expect(
      (
        await adminCall(
          t,
          '/v1/admin/accounts/telegramStatus',
          { account_id: acct!.account_id },
          token,
        )
      ).data,
    ).toBeNull();
  });

  it('refuses a token Telegram refuses or of a bad shape on bot_token, and a missing one, changing nothing', async () => {
    const seat = await createSeat(t, 'tg-refused');
    const [acct] = (await adminCall(t, '/v1/admin/accounts/list', { seat_id: seat.seatId }, token))
      .data.list;
    const refused = await adminCall(
      t,
      '/v1/admin/accounts/setChannel',
      {
        account_id: acct!.account_id,
        channel: 'telegram',
        bot_token: '123456:AAHunknown-bot-token-xxxxxxxxxxxxxx',
      },
      token,
    );
    expect(refused.code).toBe('100001');
    expect(refused.data).toMatchObject({ fields: [{ path: 'bot_token' }] });
    const shape = await adminCall(
      t,
      '/v1/admin/accounts/setChannel',
      { account_id: acct!.account_id, channel: 'telegram', bot_token: 'nope' },
      token,
    );
    expect(shape.data).toMatchObject({ fields: [{ path: 'bot_token' }] });
    expect(
      (
        await adminCall(
          t,
          '/v1/admin/accounts/setChannel',
          { account_id: acct!.account_id, channel: 'telegram' },
          token,
        )
      ).code,
    ).toBe('100001');
    expect(
      (
        await adminCall(
          t,
          '/v1/admin/accounts/setChannel',
          { account_id: 999_999, channel: 'sandbox' },
          token,
        )
      ).code,
    ).toBe('400001');
    const after = (await adminCall(t, '/v1/admin/accounts/list', { seat_id: seat.seatId }, token))
      .data.list[0]!;
    expect(after).toMatchObject({ channel: 'platform', telegram: null });
    expect((await auditRows(acct!.account_id)).map((r) => r.action)).toEqual([
      'account.create',
      'account.assign',
    ]);
  });

  it('refuses a bot bound to another account with 400008', async () => {
    const a = await createSeat(t, 'tg-first');
    const b = await createSeat(t, 'tg-second');
    const botToken = tg.createBot('shared_bot');
    const [first] = (await adminCall(t, '/v1/admin/accounts/list', { seat_id: a.seatId }, token))
      .data.list;
    const [second] = (await adminCall(t, '/v1/admin/accounts/list', { seat_id: b.seatId }, token))
      .data.list;
    expect(
      (
        await adminCall(
          t,
          '/v1/admin/accounts/setChannel',
          { account_id: first!.account_id, channel: 'telegram', bot_token: botToken },
          token,
        )
      ).code,
    ).toBe('000000');
    expect(
      (
        await adminCall(
          t,
          '/v1/admin/accounts/setChannel',
          { account_id: second!.account_id, channel: 'telegram', bot_token: botToken },
          token,
        )
      ).code,
    ).toBe('400008');
  });
});
