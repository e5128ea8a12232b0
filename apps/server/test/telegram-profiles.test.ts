import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_NAMES } from '@parley/protocol';
import { EXIT, runCli, type CliIo } from '../src/cli/run.js';
import { createChat, createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const TG = '/v1/seat/tg/userInfo';
const ADD = '/v1/seat/chat/addSession';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const status = await runCli(argv, io, t.config);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

/** A seat with one platform account (phones[0]) and one Telegram account (the second). */
async function seatWithTelegram(account: string): Promise<SeatFixture & { bot: string }> {
  const seat = await createSeat(t, account);
  const bot = nextPhone('+1888');
  expect((await cli('account:add', bot, '--channel', 'telegram', '--label', 'bot')).status).toBe(
    EXIT.OK,
  );
  expect((await cli('account:assign', bot, account)).status).toBe(EXIT.OK);
  return { ...seat, bot };
}

function profiles(sendPhone: string) {
  return t.db
    .selectFrom('telegram_profiles')
    .selectAll()
    .where('send_phone', '=', sendPhone)
    .execute();
}

describe('account:add --channel', () => {
  it('registers a Telegram account, listed with its channel and in the seat’s user info', async () => {
    const seat = await seatWithTelegram('tg-channel');
    const list = await cli('account:list');
    expect(list.out).toContain(`${seat.bot}\tbot\ttelegram\ttg-channel`);
    const login = await t.call('/v1/seat/chat/login', {
      account: 'tg-channel',
      password: 'correct-horse-1',
    });
    expect(login.data.phone_accounts).toEqual([
      { send_phone: seat.phones[0], label: 'line 1', channel: 'platform' },
      { send_phone: seat.bot, label: 'bot', channel: 'telegram' },
    ]);
  });

  it('refuses an unknown channel (usage) and registers nothing', async () => {
    const phone = nextPhone('+1888');
    const res = await cli('account:add', phone, '--channel', 'carrier-pigeon');
    expect(res.status).toBe(EXIT.USAGE);
    expect(res.err).toContain(`--channel ${CHANNEL_NAMES.join('|')}`);
    expect((await cli('account:list')).out).not.toContain(phone);
  });
});

describe('tg:profile (admin CLI)', () => {
  it('records a profile, then updates only the fields given', async () => {
    const seat = await seatWithTelegram('tg-cli');
    const customer = nextPhone('+7900');
    const first = await cli(
      'tg:profile',
      seat.bot,
      customer,
      '--username',
      '@anna_k',
      '--first-name',
      ' Anna ',
      '--last-name',
      'Karenina',
      '--photo-url',
      'https://t.me/i/userpic/320/anna.jpg',
      '--chat-id',
      '5512345678901',
    );
    expect(first.status, first.err).toBe(EXIT.OK);
    expect(first.out).toBe(
      `Recorded the Telegram profile of ${customer} on ${seat.bot} (@anna_k, Anna Karenina)`,
    );
    const again = await cli('tg:profile', seat.bot, customer, '--first-name', 'Anya');
    expect(again.status).toBe(EXIT.OK);
    const rows = await profiles(seat.bot);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      receiver_phone: customer,
      username: 'anna_k',
      first_name: 'Anya',
      last_name: 'Karenina',
      photo_url: 'https://t.me/i/userpic/320/anna.jpg',
      tg_chat_id: '5512345678901',
    });
    expect(rows[0]!.updated_at).toBeGreaterThan(0);
  });

  it('refuses bad input with the CLI’s exit codes and records nothing', async () => {
    const seat = await seatWithTelegram('tg-cli-bad');
    const customer = nextPhone('+7900');
    const cases: [string[], number][] = [
      [['tg:profile', seat.bot], EXIT.USAGE],
      [['tg:profile', seat.bot, customer, '--nickname', 'x'], EXIT.USAGE],
      [['tg:profile', seat.bot, 'not-a-number'], EXIT.INVALID],
      [['tg:profile', 'bot', customer], EXIT.INVALID],
      [['tg:profile', nextPhone('+1999'), customer], EXIT.NOT_FOUND],
      // A platform account has no Telegram customers.
      [['tg:profile', seat.phones[0]!, customer], EXIT.INVALID],
      [['tg:profile', seat.bot, customer, '--username', 'ab'], EXIT.INVALID],
      [['tg:profile', seat.bot, customer, '--username', 'has space'], EXIT.INVALID],
      [['tg:profile', seat.bot, customer, '--first-name', '   '], EXIT.INVALID],
      [['tg:profile', seat.bot, customer, '--first-name', 'x'.repeat(129)], EXIT.INVALID],
      [['tg:profile', seat.bot, customer, '--photo-url', 'javascript:alert(1)'], EXIT.INVALID],
      [['tg:profile', seat.bot, customer, '--photo-url', 'not a url'], EXIT.INVALID],
      [['tg:profile', seat.bot, customer, '--chat-id', '12ab'], EXIT.INVALID],
    ];
    for (const [argv, status] of cases) {
      const res = await cli(...argv);
      expect(res.status, argv.join(' ')).toBe(status);
      expect(res.err, argv.join(' ')).not.toBe('');
    }
    expect(await profiles(seat.bot)).toHaveLength(0);
    expect(await profiles(seat.phones[0]!)).toHaveLength(0);
  });
});

describe('tg/userInfo', () => {
  it('answers the recorded profile of a Telegram chat, null before one is recorded', async () => {
    const seat = await seatWithTelegram('tg-info');
    const chat = await createChat(t.db, seat, { sendPhone: seat.bot });
    const before = await t.call(TG, { session_id: chat.sessionId }, seat.token);
    expect(before.code).toBe('000000');
    expect(before.data).toBeNull();

    await cli('tg:profile', seat.bot, chat.receiverPhone, '--username', 'ivan_p');
    const partial = await t.call(TG, { session_id: chat.sessionId }, seat.token);
    expect(partial.data).toEqual({
      username: 'ivan_p',
      first_name: null,
      last_name: null,
      photo_url: null,
    });

    await cli(
      'tg:profile',
      seat.bot,
      chat.receiverPhone,
      '--first-name',
      'Ivan',
      '--last-name',
      'Petrov',
      '--photo-url',
      'https://example.org/ivan.png',
    );
    const full = await t.call(TG, { session_id: chat.sessionId }, seat.token);
    expect(full.data).toEqual({
      username: 'ivan_p',
      first_name: 'Ivan',
      last_name: 'Petrov',
      photo_url: 'https://example.org/ivan.png',
    });
  });

  it('null for a chat of a non-Telegram account, even with the same numbers recorded', async () => {
    const seat = await seatWithTelegram('tg-info-platform');
    const chat = await createChat(t.db, seat);
    // A profile of the same customer on the seat's bot does not make the platform chat one.
    await cli('tg:profile', seat.bot, chat.receiverPhone, '--username', 'someone_else');
    const res = await t.call(TG, { session_id: chat.sessionId }, seat.token);
    expect(res.code).toBe('000000');
    expect(res.data).toBeNull();
  });

  it('400001 for another seat’s chat or a missing one; 100001 and 400002 as usual', async () => {
    const owner = await seatWithTelegram('tg-owner');
    const other = await seatWithTelegram('tg-other');
    const chat = await createChat(t.db, owner, { sendPhone: owner.bot });
    await cli('tg:profile', owner.bot, chat.receiverPhone, '--username', 'private_person');

    const foreign = await t.call(TG, { session_id: chat.sessionId }, other.token);
    expect(foreign.code).toBe('400001');
    expect(foreign.status).toBe(200);
    expect(foreign.raw).not.toContain('private_person');
    expect((await t.call(TG, { session_id: 999999 }, other.token)).code).toBe('400001');
    for (const body of [{}, { session_id: 0 }, { session_id: 'x' }]) {
      const bad = await t.call(TG, body, owner.token);
      expect(bad.code).toBe('100001');
      expect(bad.msg).toBe('Parameter error: session_id');
    }
    expect((await t.call(TG, { session_id: chat.sessionId })).code).toBe('400002');
    // The owner still sees it.
    expect((await t.call(TG, { session_id: chat.sessionId }, owner.token)).data?.username).toBe(
      'private_person',
    );
  });
});

describe('addSession from a Telegram account', () => {
  it('400007 for a customer who never wrote to the bot; nothing is created', async () => {
    const seat = await seatWithTelegram('tg-add-unknown');
    const customer = nextPhone('+7900');
    // A profile on another bot does not count: each bot knows its own customers.
    const otherSeat = await seatWithTelegram('tg-add-unknown-other');
    await cli('tg:profile', otherSeat.bot, customer, '--username', 'known_elsewhere');

    const res = await t.call(
      ADD,
      {
        send_phone: seat.bot,
        receiver_phone: customer,
        greeting: 'Hello from the bot',
        client_msg_id: 'tg-add-unknown-1',
      },
      seat.token,
    );
    expect(res.code).toBe('400007');
    expect(res.msg).toBe('Target number not found');
    const rows = await t.db
      .selectFrom('sessions')
      .select('id')
      .where('seat_id', '=', seat.seatId)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('opens the chat once the customer’s profile is known, and tg/userInfo shows it', async () => {
    const seat = await seatWithTelegram('tg-add-known');
    const customer = nextPhone('+7900');
    await cli('tg:profile', seat.bot, customer, '--username', 'olga_s', '--first-name', 'Olga');
    const res = await t.call(
      ADD,
      {
        send_phone: seat.bot,
        receiver_phone: customer,
        greeting: 'Hello Olga',
        client_msg_id: 'tg-add-known-1',
      },
      seat.token,
    );
    expect(res.code).toBe('000000');
    expect(res.data.session).toMatchObject({ send_phone: seat.bot, receiver_phone: customer });
    const info = await t.call(TG, { session_id: res.data.session.session_id }, seat.token);
    expect(info.data).toMatchObject({ username: 'olga_s', first_name: 'Olga' });

    // Deleting the chat keeps what the bot knows: the chat can be opened again.
    await t.call(
      '/v1/seat/chat/delSession',
      { session_id: res.data.session.session_id },
      seat.token,
    );
    const again = await t.call(
      ADD,
      {
        send_phone: seat.bot,
        receiver_phone: customer,
        greeting: 'Hello again',
        client_msg_id: 'tg-add-known-2',
      },
      seat.token,
    );
    expect(again.code).toBe('000000');
  });

  it('platform accounts are not affected: no profile needed', async () => {
    const seat = await seatWithTelegram('tg-add-platform');
    const res = await t.call(
      ADD,
      {
        send_phone: seat.phones[0]!,
        receiver_phone: nextPhone('+7900'),
        greeting: 'Hi',
        client_msg_id: 'tg-add-platform-1',
      },
      seat.token,
    );
    expect(res.code).toBe('000000');
  });

  it('the other checks come first: 400005, 400003 (another seat’s bot), 500006', async () => {
    const seat = await seatWithTelegram('tg-add-order');
    const other = await seatWithTelegram('tg-add-order-other');
    const body = { greeting: 'Hi', client_msg_id: 'tg-add-order-1' };
    expect(
      (await t.call(ADD, { ...body, send_phone: seat.bot, receiver_phone: 'abc' }, seat.token))
        .code,
    ).toBe('400005');
    expect(
      (
        await t.call(
          ADD,
          { ...body, send_phone: other.bot, receiver_phone: nextPhone('+7900') },
          seat.token,
        )
      ).code,
    ).toBe('400003');
    const chat = await createChat(t.db, seat, { sendPhone: seat.bot });
    expect(
      (
        await t.call(
          ADD,
          { ...body, send_phone: seat.bot, receiver_phone: chat.receiverPhone },
          seat.token,
        )
      ).code,
    ).toBe('500006');
  });
});
