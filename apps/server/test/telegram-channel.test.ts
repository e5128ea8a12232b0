import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Readable } from 'node:stream';
import { EXIT, runCli, type CliIo } from '../src/cli/run.js';
import type { OutboundItem } from '../src/channels/channel.js';
import { customerNumberOf } from '../src/channels/telegram/telegram-inbound.js';
import { accountsRepository } from '../src/modules/accounts/accounts.repository.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';
import { corpus } from './media-helpers.js';
import {
  telegramConfigFor,
  TelegramBotApiServer,
  type FakeUser,
} from './telegram-bot-api-server.js';
import { PushClient } from './ws-client.js';

let tg: TelegramBotApiServer;
let t: TestApp;
let base: string;
let push: PushClient | undefined;
beforeAll(async () => {
  tg = await new TelegramBotApiServer().start();
  t = await createTestApp({ telegram: telegramConfigFor(tg.url) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  push?.close();
  await t?.close();
  await tg?.stop();
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const status = await runCli(argv, io, t.config);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

let userCounter = 0;
function newUser(extra: Partial<FakeUser> = {}): FakeUser {
  userCounter += 1;
  return {
    id: 5_000_000_000 + process.pid * 100 + userCounter,
    first_name: 'Anna',
    last_name: 'Karenina',
    username: `anna_k${userCounter}`,
    language_code: 'ru',
    ...extra,
  };
}

/** A seat whose first account is bound to a new bot of the local Bot API. */
async function seatWithBot(
  account: string,
): Promise<SeatFixture & { bot: string; botToken: string }> {
  const seat = await createSeat(t, account);
  const token = tg.createBot(`${account.replace(/-/g, '_')}_bot`);
  const res = await cli('account:telegram:bind', seat.phones[0]!, '--token', token);
  expect(res.err).toBe('');
  expect(res.status).toBe(EXIT.OK);
  return { ...seat, bot: seat.phones[0]!, botToken: token };
}

function record(seat: SeatFixture & { bot: string }, customer: string) {
  return t.call(
    '/v1/seat/chat/getChatRecord',
    { send_phone: seat.bot, receiver_phone: customer, page_size: 100 },
    seat.token,
  );
}

/** Waits until the chat shows `count` messages (the poller works in the background). */
async function waitForMessages(
  seat: SeatFixture & { bot: string },
  customer: string,
  count: number,
) {
  return vi.waitFor(
    async () => {
      const res = await record(seat, customer);
      expect(res.code).toBe('000000');
      expect(res.data.list).toHaveLength(count);
      return res.data.list;
    },
    { timeout: 15_000, interval: 25 },
  );
}

async function botRow(sendPhone: string) {
  return t.db
    .selectFrom('telegram_bots')
    .selectAll()
    .where('send_phone', '=', sendPhone)
    .executeTakeFirst();
}

describe('account:telegram:bind / unbind / list', () => {
  it('binds an account after getMe, shows the token masked, makes the channel telegram', async () => {
    const seat = await createSeat(t, 'tg-bind');
    const token = tg.createBot('parley_bind_bot');
    const res = await cli('account:telegram:bind', seat.phones[0]!, '--token', token);
    expect(res.status).toBe(EXIT.OK);
    expect(res.out).toContain(`Bound ${seat.phones[0]} to the Telegram bot @parley_bind_bot`);
    expect(res.out).not.toContain(token);
    const list = await cli('account:telegram:list');
    expect(list.out).toContain(`${seat.phones[0]}\t@parley_bind_bot\t${token.split(':')[0]}\t`);
    expect(list.out).toContain(`${token.split(':')[0]}:****${token.slice(-4)}`);
    expect(list.out).not.toContain(token);
    expect((await accountsRepository.findByPhone(t.db, seat.phones[0]!))?.channel).toBe('telegram');
    const login = await t.call('/v1/seat/chat/login', {
      account: 'tg-bind',
      password: 'correct-horse-1',
    });
    expect(login.data.phone_accounts[0]).toMatchObject({ channel: 'telegram' });

    // The same bot on another account: 400008, nothing changes.
    const other = nextPhone('+1777');
    await t.services.accounts.add({ phone: other });
    const again = await cli('account:telegram:bind', other, '--token', token);
    expect(again.status).toBe(EXIT.EXISTS);
    expect(again.err).toContain('400008');
    expect(await botRow(other)).toBeUndefined();
    expect((await accountsRepository.findByPhone(t.db, other))?.channel).toBe('platform');

    const unbind = await cli('account:telegram:unbind', seat.phones[0]!);
    expect(unbind.status).toBe(EXIT.OK);
    expect(await botRow(seat.phones[0]!)).toBeUndefined();
    expect((await cli('account:telegram:list')).out).not.toContain(seat.phones[0]!);
    expect((await cli('account:telegram:unbind', seat.phones[0]!)).status).toBe(EXIT.NOT_FOUND);
  });

  it('a token Telegram refuses, a malformed one, or Telegram out of reach: clear error, nothing stored', async () => {
    const phone = nextPhone('+1777');
    await t.services.accounts.add({ phone });
    const unknown = `${9_999_999}:AAH${'z'.repeat(32)}`;
    const refused = await cli('account:telegram:bind', phone, '--token', unknown);
    expect(refused.status).toBe(EXIT.INVALID);
    expect(refused.err).toContain('token: Telegram refused the token (401 Unauthorized)');

    const malformed = await cli('account:telegram:bind', phone, '--token', 'not-a-token');
    expect(malformed.status).toBe(EXIT.INVALID);
    expect(malformed.err).toContain('token: a bot token like');

    const token = tg.createBot('parley_offline_bot');
    const out = await runCli(
      ['account:telegram:bind', phone, '--token', token],
      { out: () => undefined, err: () => undefined },
      { ...t.config, telegram: { ...t.config.telegram, apiUrl: 'http://127.0.0.1:9' } },
    );
    expect(out).toBe(EXIT.ERROR);

    const hooked = tg.createBot('parley_hooked_bot');
    tg.bot(hooked).webhook = 'https://example.com/hook';
    const webhook = await cli('account:telegram:bind', phone, '--token', hooked);
    expect(webhook.status).toBe(EXIT.INVALID);
    expect(webhook.err).toContain('the bot delivers to a webhook (https://example.com/hook)');

    expect(await botRow(phone)).toBeUndefined();
    expect((await accountsRepository.findByPhone(t.db, phone))?.channel).toBe('platform');
    expect((await cli('account:telegram:bind', nextPhone('+1777'), '--token', token)).status).toBe(
      EXIT.NOT_FOUND,
    );
    expect((await cli('account:telegram:bind', phone)).status).toBe(EXIT.USAGE);
  });
});

describe('account:channel (admin CLI)', () => {
  it("a plain channel forgets the account's bot from the CLI too", async () => {
    const seat = await seatWithBot('tg-cli-plain');
    const res = await cli('account:channel', seat.bot, 'sandbox');
    expect(res.status).toBe(EXIT.OK);
    expect(await botRow(seat.bot)).toBeUndefined();
    expect((await cli('account:telegram:list')).out).not.toContain(seat.bot);
    expect((await accountsRepository.findByPhone(t.db, seat.bot))?.channel).toBe('sandbox');
  });
});

describe('inbound: customers write to the bot', () => {
  it('text and media become one chat of the seat; the profile is recorded; tg/userInfo answers it', async () => {
    const seat = await seatWithBot('tg-in');
    const user = newUser();
    tg.setProfilePhoto(user.id, corpus('photo.jpg'));
    const customer = customerNumberOf(user.id);
    // The operator's console is open: the new chat and its messages are pushed to it.
    push = await PushClient.open(base, { token: seat.token, last_event_id: 0 });
    await push.waitFor('ready');

    tg.pushMessage(seat.botToken, user, { text: 'Здравствуйте!' });
    tg.pushMessage(seat.botToken, user, {
      photo: [
        {
          file_id: tg.addFile(corpus('photo.png'), 'png'),
          file_unique_id: 'p1s',
          width: 90,
          height: 90,
        },
        {
          file_id: tg.addFile(corpus('photo.jpg'), 'jpg'),
          file_unique_id: 'p1',
          width: 800,
          height: 600,
        },
      ],
      caption: 'this one',
    });
    tg.pushMessage(seat.botToken, user, {
      voice: { file_id: tg.addFile(corpus('voice.ogg'), 'oga'), file_unique_id: 'v1', duration: 2 },
    });
    tg.pushMessage(seat.botToken, user, {
      video: { file_id: tg.addFile(corpus('clip.mp4'), 'mp4'), file_unique_id: 'c1', duration: 1 },
    });
    tg.pushMessage(seat.botToken, user, {
      document: {
        file_id: tg.addFile(corpus('doc.pdf'), 'pdf'),
        file_unique_id: 'd1',
        file_name: 'invoice.pdf',
        mime_type: 'application/pdf',
      },
    });
    // A voice note whose bytes are no audio still reaches the operator, as a file.
    tg.pushMessage(seat.botToken, user, {
      voice: { file_id: tg.addFile(corpus('doc.pdf'), 'oga'), file_unique_id: 'v2', duration: 1 },
    });

    await push.waitForEvent(
      'message.created',
      (d) => d.message.content === 'Здравствуйте!' && d.session.receiver_phone === customer,
    );
    await push.waitForEvent('message.created', (d) => d.message.type === 'video');
    const list = await waitForMessages(seat, customer, 6);
    expect(list.map((m) => [m.direction, m.type, m.content])).toEqual([
      ['in', 'text', 'Здравствуйте!'],
      ['in', 'image', 'this one'],
      ['in', 'audio', ''],
      ['in', 'video', ''],
      ['in', 'file', ''],
      ['in', 'file', ''],
    ]);
    expect(list[1]!.media).toMatchObject({ mime: 'image/jpeg', width: 800, height: 600 });
    expect(list[2]!.media).toMatchObject({ mime: 'audio/ogg', duration_ms: 2000 });
    expect(list[3]!.media).toMatchObject({ mime: 'video/mp4' });
    expect(list[4]!.media).toMatchObject({ mime: 'application/pdf', file_name: 'invoice.pdf' });
    expect(list[5]!.media).toMatchObject({ mime: 'application/pdf' });
    // The photo's bytes are Telegram's file, served to the seat.
    const photo = await t.app.inject({ method: 'GET', url: list[1]!.media!.url });
    expect(photo.statusCode).toBe(200);
    expect(photo.rawPayload.equals(corpus('photo.jpg'))).toBe(true);

    // The chat is in Ungrouped with 6 unread.
    const groups = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: seat.groups.ungrouped, user_time_type: 1 },
      seat.token,
    );
    const chat = groups.data.account_list.find((s) => s.receiver_phone === customer)!;
    // A new chat takes the customer's Telegram language.
    expect(chat).toMatchObject({ send_phone: seat.bot, customer_language: 'RU' });

    const info = await vi.waitFor(
      async () => {
        const res = await t.call(
          '/v1/seat/tg/userInfo',
          { session_id: chat.session_id },
          seat.token,
        );
        expect(res.data?.photo_url).toBeTruthy();
        return res.data!;
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(info).toMatchObject({
      username: user.username,
      first_name: 'Anna',
      last_name: 'Karenina',
    });
    const avatar = await t.app.inject({ method: 'GET', url: info.photo_url! });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.rawPayload.equals(corpus('photo.jpg'))).toBe(true);
    const profile = await t.db
      .selectFrom('telegram_profiles')
      .selectAll()
      .where('send_phone', '=', seat.bot)
      .where('receiver_phone', '=', customer)
      .executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ tg_chat_id: String(user.id), language_code: 'ru' });

    // Seat isolation: another seat sees neither the chat nor the profile.
    const other = await createSeat(t, 'tg-in-other');
    expect(
      (await t.call('/v1/seat/tg/userInfo', { session_id: chat.session_id }, other.token)).code,
    ).toBe('400001');
    expect(
      (
        await t.call(
          '/v1/seat/chat/getChatRecord',
          { send_phone: seat.bot, receiver_phone: customer, page_size: 10 },
          other.token,
        )
      ).code,
    ).toBe('400001');
    const foreign = await t.app.inject({
      method: 'GET',
      url: info.photo_url!.replace(/seat=\d+/, `seat=${other.seatId}`),
    });
    expect(foreign.statusCode).not.toBe(200);
  });

  it('a file path that is not relative segments is never fetched; the message arrives without it', async () => {
    const seat = await seatWithBot('tg-path');
    const user = newUser();
    const customer = customerNumberOf(user.id);
    const hostile = [
      `../../bot${seat.botToken}/getMe`,
      'documents/file.pdf?method=getMe',
      'documents/%2e%2e/file.pdf',
      '/etc/passwd',
    ];
    const before = tg.gets.length;
    for (const filePath of hostile) {
      tg.pushMessage(seat.botToken, user, {
        document: {
          file_id: tg.addFile(corpus('doc.pdf'), 'pdf', filePath),
          file_unique_id: `h-${filePath}`,
          file_name: 'x.pdf',
        },
      });
    }
    const list = await waitForMessages(seat, customer, hostile.length);
    expect(list.map((m) => [m.type, m.content, m.media])).toEqual(
      hostile.map(() => ['text', '[file]', null]),
    );
    // Only the benign paths of other tests' files reached the Bot API, never one of these.
    const odd = tg.gets
      .slice(before)
      .filter((g) => g.startsWith('/file/'))
      .filter((g) => !/^\/file\/bot[^/]+\/documents\/file_[0-9]+\.[a-z0-9]+$/.test(g));
    expect(odd).toEqual([]);
  });

  it('an update handed over twice (in one batch, or again after a lost offset) is stored once', async () => {
    const seat = await seatWithBot('tg-replay');
    const user = newUser();
    const customer = customerNumberOf(user.id);
    const first = tg.pushMessage(seat.botToken, user, { text: 'once' });
    tg.pushUpdate(seat.botToken, first);
    await waitForMessages(seat, customer, 1);
    await vi.waitFor(async () => {
      expect(Number((await botRow(seat.bot))!.update_offset)).toBe(first.update_id + 1);
    });

    // A crash between storing and confirming: the offset is back and Telegram sends it again.
    await t.db
      .updateTable('telegram_bots')
      .set({ update_offset: first.update_id })
      .where('send_phone', '=', seat.bot)
      .execute();
    tg.pushUpdate(seat.botToken, first);
    const second = tg.pushMessage(seat.botToken, user, { text: 'twice' });
    const list = await waitForMessages(seat, customer, 2);
    expect(list.map((m) => m.content)).toEqual(['once', 'twice']);
    await vi.waitFor(async () => {
      expect(Number((await botRow(seat.bot))!.update_offset)).toBe(second.update_id + 1);
    });
    expect((await record(seat, customer)).data.list).toHaveLength(2);
    expect(tg.bot(seat.botToken).conflicts).toBe(0);
  });
  it('a poll whose update the database fails: the others are stored, the offset stops at it and it is stored when it comes again', async () => {
    const seat = await seatWithBot('tg-fails');
    const user = newUser();
    const customer = customerNumberOf(user.id);
    // A real failure of the database for one text (a trigger), gone later.
    const poison = 'the database refuses this';
    if (usingPg) {
      await sql
        .raw(
          `create or replace function tg_fails_refuse() returns trigger language plpgsql as $$ begin if new.content = '${poison}' then raise exception 'refused'; end if; return new; end $$;
           create trigger tg_fails before insert on messages for each row execute function tg_fails_refuse();`,
        )
        .execute(t.db);
    } else {
      await sql
        .raw(
          `create trigger tg_fails before insert on messages when new.content = '${poison}' begin select raise(abort, 'refused'); end`,
        )
        .execute(t.db);
    }
    try {
      tg.pushMessage(seat.botToken, user, { text: 'before' });
      const failing = tg.pushMessage(seat.botToken, user, { text: poison });
      tg.pushMessage(seat.botToken, user, { text: 'after' });
      // The others of its polls are stored; the offset stays at the failed update.
      await waitForMessages(seat, customer, 2);
      await vi.waitFor(async () => {
        expect(Number((await botRow(seat.bot))!.update_offset)).toBe(failing.update_id);
      });
    } finally {
      await sql.raw('drop trigger tg_fails' + (usingPg ? ' on messages' : '')).execute(t.db);
    }
    // It comes again (with the update after it, recognised) and is stored, each once.
    const list = await waitForMessages(seat, customer, 3);
    expect(list.map((m) => m.content).sort()).toEqual(['after', 'before', poison].sort());
    expect(list.map((m) => m.content).at(-1)).toBe(poison);
  });
});

describe('outbound: the telegram ChannelAdapter', () => {
  async function chatWithCustomer(account: string) {
    const seat = await seatWithBot(account);
    const user = newUser();
    tg.pushMessage(seat.botToken, user, { text: 'hi' });
    const customer = customerNumberOf(user.id);
    await waitForMessages(seat, customer, 1);
    const acc = (await accountsRepository.findByPhone(t.db, seat.bot))!;
    return { seat, user, customer, account: acc };
  }

  function media(name: string, mime: string, durationMs: number | null = null) {
    return {
      media_id: 'm1',
      mime,
      size: corpus(name).length,
      file_name: name,
      duration_ms: durationMs,
      open: async () => Readable.from(corpus(name)),
    };
  }

  it('sends text and every media kind with the right method, and retracts with deleteMessage', async () => {
    const { seat, user, customer, account } = await chatWithCustomer('tg-out');
    const channel = t.services.telegramChannel;
    const base = { kind: 'message' as const, msgId: 1, account, receiverPhone: customer };
    const sent = await channel.deliver({
      ...base,
      type: 'text',
      content: 'Hello from Parley',
      media: null,
    });
    expect(sent).toMatchObject({ ok: true, externalId: expect.any(String) });

    const cases: [OutboundItem & { kind: 'message' }, string, string][] = [
      [
        { ...base, type: 'image', content: 'look', media: media('photo.jpg', 'image/jpeg') },
        'sendPhoto',
        'photo',
      ],
      [
        { ...base, type: 'audio', content: '', media: media('voice.ogg', 'audio/ogg', 2000) },
        'sendVoice',
        'voice',
      ],
      [
        { ...base, type: 'audio', content: '', media: media('tone.mp3', 'audio/mpeg') },
        'sendAudio',
        'audio',
      ],
      [
        { ...base, type: 'video', content: 'clip', media: media('clip.mp4', 'video/mp4') },
        'sendVideo',
        'video',
      ],
      [
        { ...base, type: 'file', content: '', media: media('doc.pdf', 'application/pdf') },
        'sendDocument',
        'document',
      ],
    ];
    for (const [item] of cases) {
      expect(await channel.deliver(item)).toMatchObject({ ok: true });
    }
    const log = tg.bot(seat.botToken).sent;
    expect(log[0]).toMatchObject({
      method: 'sendMessage',
      chat_id: String(user.id),
      text: 'Hello from Parley',
    });
    cases.forEach(([item, method, field], i) => {
      const got = log[i + 1]!;
      expect(got).toMatchObject({ method, chat_id: String(user.id) });
      expect(got.file?.field).toBe(field);
      expect(got.file?.name).toBe(item.media!.file_name);
      expect(got.file?.bytes.equals(corpus(item.media!.file_name))).toBe(true);
      if (item.content) expect(got.caption).toBe(item.content);
    });
    expect(log[2]!.params.duration).toBe('2');

    const del = await channel.deliver({
      kind: 'delete',
      msgId: 1,
      externalId: (sent as { externalId: string }).externalId,
      account,
      receiverPhone: customer,
    });
    expect(del).toEqual({ ok: true, externalId: (sent as { externalId: string }).externalId });
    expect(tg.bot(seat.botToken).deleted).toEqual([
      { chat_id: String(user.id), message_id: Number((sent as { externalId: string }).externalId) },
    ]);
    // Never delivered: nothing to retract.
    expect(
      await channel.deliver({
        kind: 'delete',
        msgId: 2,
        externalId: null,
        account,
        receiverPhone: customer,
      }),
    ).toEqual({ ok: true, externalId: null });
  });

  it('maps failures: 429 waits retry_after, 5xx and network retry, 400/403 and no bot give up', async () => {
    const { seat, user, customer, account } = await chatWithCustomer('tg-out-err');
    const channel = t.services.telegramChannel;
    const item = {
      kind: 'message' as const,
      msgId: 1,
      account,
      receiverPhone: customer,
      type: 'text' as const,
      content: 'x',
      media: null,
    };

    tg.failNext('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 7',
      retry_after: 7,
    });
    expect(await channel.deliver(item)).toMatchObject({
      ok: false,
      retryable: true,
      retryAfterMs: 7000,
    });
    tg.failNext('sendMessage', { error_code: 502, description: 'Bad Gateway' });
    expect(await channel.deliver(item)).toMatchObject({ ok: false, retryable: true });
    tg.failNext('sendMessage', 'drop');
    expect(await channel.deliver(item)).toMatchObject({ ok: false, retryable: true });
    tg.failNext('sendMessage', { error_code: 400, description: 'Bad Request: chat not found' });
    expect(await channel.deliver(item)).toEqual({
      ok: false,
      retryable: false,
      error: 'Telegram 400: Bad Request: chat not found',
    });
    tg.block(seat.botToken, user.id);
    expect(await channel.deliver(item)).toEqual({
      ok: false,
      retryable: false,
      error: 'Telegram 403: Forbidden: bot was blocked by the user',
    });
    expect(tg.bot(seat.botToken).sent).toHaveLength(0);

    expect((await cli('account:telegram:unbind', seat.bot)).status).toBe(EXIT.OK);
    expect(await channel.deliver(item)).toMatchObject({ ok: false, retryable: false });
  });
});
