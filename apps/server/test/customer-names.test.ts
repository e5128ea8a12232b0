import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLATFORM_PATHS, type EventPayload, type SessionItem } from '@parley/protocol';
import { EXIT, runCli, type CliIo } from '../src/cli/run.js';
import { customerNumberOf } from '../src/channels/telegram/telegram-inbound.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { corpus } from './media-helpers.js';
import { platformPost } from './platform-helpers.js';
import { browserKey, sandboxAs } from './sandbox-helpers.js';
import { telegramConfigFor, TelegramBotApiServer } from './telegram-bot-api-server.js';
import { PushClient } from './ws-client.js';

/**
 * Customers have names and faces: the name a channel gives a customer (the platform's `name`,
 * a Telegram profile, the sandbox customer's) and the channel's photo of them reach the seat's
 * chat rows, address book and pushes; the lists and the address book find them by that name;
 * another seat sees none of it. A remark stays the seat's own (a client shows it first).
 */
let t: TestApp;
let tg: TelegramBotApiServer;
let base: string;
let seat: SeatFixture;
let other: SeatFixture;
const pushes: PushClient[] = [];

beforeAll(async () => {
  tg = await new TelegramBotApiServer().start();
  t = await createTestApp({ telegram: telegramConfigFor(tg.url), sandbox: 'on' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  seat = await createSeat(t, 'names-seat');
  other = await createSeat(t, 'names-other');
});
afterAll(async () => {
  for (const p of pushes) p.close();
  await t?.close();
  await tg?.stop();
});

let counter = 0;
async function platformMessage(fields: Record<string, unknown>) {
  return platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({
      id: `names-${process.pid}-${++counter}`,
      account: seat.phones[0],
      type: 'text',
      content: 'hello',
      ...fields,
    }),
  );
}

async function row(customer: string, who = seat, keyword?: string): Promise<SessionItem | null> {
  const res = await t.call(
    '/v1/seat/chat/getGroupInfo',
    { group_id: who.groups.ungrouped, ...(keyword ? { keyword } : {}) },
    who.token,
  );
  expect(res.code).toBe('000000');
  return res.data.account_list.find((s) => s.receiver_phone === customer) ?? null;
}

async function book(keyword: string, who = seat) {
  const res = await t.call('/v1/seat/chat/addressBook', { keyword }, who.token);
  expect(res.code).toBe('000000');
  return res.data.list;
}

describe('the platform webhook’s name', () => {
  it('shows on the chat row, the address book and the push; a later message keeps or renames it', async () => {
    const push = await PushClient.open(base, { token: seat.token, last_event_id: 0 });
    pushes.push(push);
    await push.waitFor('ready');
    const customer = nextPhone('+4471');
    expect((await platformMessage({ customer, name: '  María  José ' })).code).toBe('000000');
    const created = await push.waitForEvent(
      'session.created',
      (d) => d.session.receiver_phone === customer,
    );
    expect((created.data as EventPayload<'session.created'>).session.customer_name).toBe(
      'María  José',
    );
    expect((await row(customer))?.customer_name).toBe('María  José');
    expect((await book(customer)).map((e) => e.customer_name)).toEqual(['María  José']);

    // A message without a name (or an empty one) keeps the name; a new name replaces it.
    expect((await platformMessage({ customer })).code).toBe('000000');
    expect((await platformMessage({ customer, name: '   ' })).code).toBe('000000');
    expect((await row(customer))?.customer_name).toBe('María  José');
    expect((await platformMessage({ customer, name: 'María J. Ortega' })).code).toBe('000000');
    expect((await row(customer))?.customer_name).toBe('María J. Ortega');
    // No photo from the platform: the client draws initials.
    expect((await row(customer))?.avatar_url).toBeNull();
  });

  it('takes a name of any script, drops control characters, cuts it to 128 characters', async () => {
    const customer = nextPhone('+4472');
    const long = '李'.repeat(200);
    expect((await platformMessage({ customer, name: `Ann\u0007a\n${long}` })).code).toBe('000000');
    const name = (await row(customer))!.customer_name!;
    expect(name.startsWith('Ann a ')).toBe(true);
    expect([...name]).toHaveLength(128);
  });

  it('a name that is not a string is refused with 100001 naming it; nothing is stored', async () => {
    const customer = nextPhone('+4473');
    const res = await platformMessage({ customer, name: 42 });
    expect(res.status).toBe(400);
    expect(res.code).toBe('100001');
    expect(res.data).toMatchObject({ fields: [expect.objectContaining({ path: 'name' })] });
    expect(await row(customer)).toBeNull();
  });

  it('a remark is the seat’s own: the channel’s name stays beside it, and a new name never changes it', async () => {
    const customer = nextPhone('+4474');
    await platformMessage({ customer, name: 'Olga' });
    const chat = (await row(customer))!;
    const set = await t.call(
      '/v1/seat/chat/set_remark',
      { session_id: chat.session_id, remark: 'VIP wholesale' },
      seat.token,
    );
    expect(set.code).toBe('000000');
    await platformMessage({ customer, name: 'Olga Petrova' });
    expect(await row(customer)).toMatchObject({
      remark: 'VIP wholesale',
      customer_name: 'Olga Petrova',
    });
  });
});

describe('finding customers by name', () => {
  it('the chat list’s keyword and the address book match the name (any case); another seat finds nothing', async () => {
    const customer = nextPhone('+4475');
    await platformMessage({ customer, name: 'Zebulon Quartermaine' });
    expect((await row(customer, seat, 'quartermaine'))?.customer_name).toBe('Zebulon Quartermaine');
    expect((await row(customer, seat, 'ZEBULON'))?.receiver_phone).toBe(customer);
    expect((await book('bulon quart')).map((e) => e.receiver_phone)).toEqual([customer]);
    // Not a match: nothing.
    expect(await row(customer, seat, 'Quartermaines')).toBeNull();
    // Another seat: not its customer, by name or by number.
    expect(await book('Zebulon', other)).toEqual([]);
    expect(await book(customer, other)).toEqual([]);
    expect(await row(customer, other, 'Zebulon')).toBeNull();
  });

  it('a name in another script matches in any case too (Cyrillic, Portuguese accents)', async () => {
    const anna = nextPhone('+4475');
    await platformMessage({ customer: anna, name: 'Анна Каренина' });
    expect((await row(anna, seat, 'анна'))?.customer_name).toBe('Анна Каренина');
    expect((await book('КАРЕНИНА')).map((e) => e.receiver_phone)).toEqual([anna]);
    const joao = nextPhone('+4475');
    await platformMessage({ customer: joao, name: 'JOÃO ÁVILA' });
    expect((await row(joao, seat, 'joão ávila'))?.customer_name).toBe('JOÃO ÁVILA');
  });
});

describe('the sandbox customer’s name', () => {
  it('the name the sandbox customer plays under reaches the seat', async () => {
    const customer = nextPhone('+4476');
    const sent = await sandboxAs(t, browserKey()).send({
      account: seat.phones[0],
      customer,
      name: 'Sandy Beach',
      content: 'hi from the sandbox',
    });
    expect(sent.code).toBe('000000');
    expect((await row(customer))?.customer_name).toBe('Sandy Beach');
  });
});

async function cli(...argv: string[]) {
  const io: CliIo = { out: () => undefined, err: () => undefined };
  return runCli(argv, io, t.config);
}

describe('Telegram: the profile’s name and photo', () => {
  it('first and last name become the chat’s name; the photo is served as the seat’s media, to it only', async () => {
    const tgSeat = await createSeat(t, 'names-tg');
    const token = tg.createBot('names_tg_bot');
    expect(await cli('account:telegram:bind', tgSeat.phones[0]!, '--token', token)).toBe(EXIT.OK);
    const push = await PushClient.open(base, { token: tgSeat.token, last_event_id: 0 });
    pushes.push(push);
    await push.waitFor('ready');
    const user = {
      id: 6_000_000_000 + process.pid,
      first_name: 'Anna',
      last_name: 'Karenina',
      username: 'anna_names',
    };
    tg.setProfilePhoto(user.id, corpus('photo.jpg'));
    tg.pushMessage(token, user, { text: 'Добрый день' });
    const customer = customerNumberOf(user.id);

    // The photo is fetched after the message: the chat is pushed again with it.
    const updated = await push.waitForEvent(
      'session.updated',
      (d) => d.session.receiver_phone === customer && d.session.avatar_url !== null,
    );
    expect((updated.data as EventPayload<'session.updated'>).session.customer_name).toBe(
      'Anna Karenina',
    );
    const chat = await vi.waitFor(
      async () => {
        const found = await row(customer, tgSeat);
        expect(found?.avatar_url).toBeTruthy();
        return found!;
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(chat.customer_name).toBe('Anna Karenina');
    const photo = await t.app.inject({ method: 'GET', url: chat.avatar_url! });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.rawPayload.equals(corpus('photo.jpg'))).toBe(true);
    // Signed for this seat: another seat's number in the URL is refused.
    const forged = chat.avatar_url!.replace(`seat=${tgSeat.seatId}`, `seat=${other.seatId}`);
    const refused = await t.app.inject({ method: 'GET', url: forged });
    expect(refused.statusCode).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ code: '400003' });

    // The seat's own send pushes the chat with the same face (the database-built event too).
    const sent = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: tgSeat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'Здравствуйте, Анна',
        client_msg_id: `names-send-${process.pid}`,
      },
      tgSeat.token,
    );
    expect(sent.code).toBe('000000');
    const echoed = await push.waitForEvent(
      'message.created',
      (d) => d.message.content === 'Здравствуйте, Анна',
    );
    const { session } = echoed.data as EventPayload<'message.created'>;
    expect(session.avatar_url).toBe(chat.avatar_url);
    expect(session.customer_name).toBe('Anna Karenina');
  });

  it('a profile with only a username shows @username; tg:profile names the chat too', async () => {
    const tgSeat = await createSeat(t, 'names-tg2');
    const token = tg.createBot('names_tg2_bot');
    expect(await cli('account:telegram:bind', tgSeat.phones[0]!, '--token', token)).toBe(EXIT.OK);
    const user = { id: 6_100_000_000 + process.pid, first_name: '', username: 'only_user' };
    tg.pushMessage(token, user, { text: 'hey' });
    const customer = customerNumberOf(user.id);
    await vi.waitFor(
      async () => expect((await row(customer, tgSeat))?.customer_name).toBe('@only_user'),
      { timeout: 10_000, interval: 25 },
    );
    expect(await cli('tg:profile', tgSeat.phones[0]!, customer, '--first-name', 'Boris')).toBe(
      EXIT.OK,
    );
    // The CLI is another process: this server learns of its change by the list version's
    // notice (PostgreSQL), a moment later.
    await vi.waitFor(
      async () => expect((await row(customer, tgSeat))?.customer_name).toBe('Boris'),
      { timeout: 10_000, interval: 25 },
    );
  });
});
