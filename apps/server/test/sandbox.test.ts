import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_PATHS, type SandboxEntry } from '@parley/protocol';
import { createTestApp, type TestApp } from './helper.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { corpus, uploaded } from './media-helpers.js';
import { browserKey, sandboxAs } from './sandbox-helpers.js';

let t: TestApp;
let seat: SeatFixture;
// One browser plays every customer of this file.
const key = browserKey();

beforeAll(async () => {
  // No platform URL: the sandbox plays the platform for the seat's 'platform' accounts.
  t = await createTestApp({ sandbox: 'on' });
  seat = await createSeat(t, 'sandbox-owner');
});
afterAll(async () => t?.close());

const get = async (url: string) =>
  (await sandboxAs(t, key).get(url)) as { code: string; data: { list: SandboxEntry[] } };
const sandboxSend = (body: Record<string, unknown>) => sandboxAs(t, key).send(body);
const chatOf = async (customer: string, visible = true) =>
  (await sandboxAs(t, key).chat(seat.phones[0]!, customer, visible)).data!.list;
const record = async (customer: string) =>
  (
    await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: seat.phones[0]!, receiver_phone: customer },
      seat.token,
    )
  ).data.list;
const until = (fn: () => Promise<void>) => vi.waitFor(fn, { timeout: 15_000, interval: 20 });

describe('customer sandbox', () => {
  it("lists the seats' accounts", async () => {
    const res = await get(SANDBOX_PATHS.accounts);
    expect(res.data.list).toContainEqual({ send_phone: seat.phones[0], label: 'line 1' });
  });

  it('a customer and the operator chat both ways, with receipts and deletions', async () => {
    const customer = nextPhone('+4481');
    const sent = await sandboxSend({ account: seat.phones[0], customer, content: 'hello?' });
    expect(sent.code).toBe('000000');
    expect(sent.data).toMatchObject({ direction: 'in', content: 'hello?', blocked: false });
    const [incoming] = await record(customer);
    expect(incoming).toMatchObject({ direction: 'in', content: 'hello?' });

    const photo = await sandboxSend({
      account: seat.phones[0],
      customer,
      type: 'image',
      media: { data: corpus('photo.png').toString('base64'), file_name: 'photo.png' },
    });
    expect(photo.data.media_url).toBeTruthy();
    const served = await t.app.inject({ method: 'GET', url: photo.data.media_url! });
    expect(served.rawPayload.equals(corpus('photo.png'))).toBe(true);

    const reply = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'Hi, how can I help?',
        client_msg_id: 'sandbox-reply-0001',
      },
      seat.token,
    );
    expect(reply.code).toBe('000000');
    const statusOf = async () =>
      (await record(customer)).find((m) => m.msg_id === reply.data.msg_id)!.status;
    // Delivered into the sandbox's store; 'delivered' once the customer's page fetches it,
    // 'read' once it shows it in view.
    await until(async () => {
      const row = await t.db
        .selectFrom('sandbox_entries')
        .select('id')
        .where('msg_id', '=', reply.data.msg_id)
        .executeTakeFirst();
      expect(row).toBeDefined();
    });
    expect(await statusOf()).toBe('sent');
    await chatOf(customer, false);
    expect(await statusOf()).toBe('delivered');
    const seen = await chatOf(customer);
    expect(seen.map((e) => [e.direction, e.type, e.content])).toEqual([
      ['in', 'text', 'hello?'],
      ['in', 'image', ''],
      ['out', 'text', 'Hi, how can I help?'],
    ]);
    expect(await statusOf()).toBe('read');

    const media = await uploaded(t, seat.token, 'image', 'photo.jpg');
    const image = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'image',
        content: '',
        media_id: media.media_id,
        client_msg_id: 'sandbox-reply-0002',
      },
      seat.token,
    );
    await until(async () => expect((await chatOf(customer)).length).toBe(4));
    const out = (await chatOf(customer))[3]!;
    const bytes = await t.app.inject({ method: 'GET', url: out.media_url! });
    expect(bytes.rawPayload.equals(corpus('photo.jpg'))).toBe(true);

    const del = await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: image.data.msg_id, scope: 'all' },
      seat.token,
    );
    expect(del.code).toBe('000000');
    await until(async () =>
      expect((await chatOf(customer))[3]).toMatchObject({ deleted: true, media_url: null }),
    );
  });

  it("a new chat's greeting reaches the sandbox customer, once", async () => {
    const customer = nextPhone('+4481');
    const added = await t.call(
      '/v1/seat/chat/addSession',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        greeting: 'Hello from Parley, can we help?',
        client_msg_id: 'sandbox-greeting-0001',
      },
      seat.token,
    );
    expect(added.code, added.raw).toBe('000000');
    await until(async () =>
      expect((await chatOf(customer)).map((e) => [e.direction, e.content])).toEqual([
        ['out', 'Hello from Parley, can we help?'],
      ]),
    );
    // The customer's page showed it: the operator sees it read.
    await until(async () =>
      expect((await record(customer))[0]).toMatchObject({
        msg_id: added.data.message.msg_id,
        status: 'read',
      }),
    );
  });

  it("the operator's file reaches the customer with its name and size, downloaded under it", async () => {
    const customer = nextPhone('+4481');
    await sandboxSend({ account: seat.phones[0], customer, content: 'Send me the form' });
    const doc = await uploaded(t, seat.token, 'file', 'doc.pdf');
    const sent = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'file',
        content: '',
        media_id: doc.media_id,
        client_msg_id: 'sandbox-file-0001',
      },
      seat.token,
    );
    expect(sent.code).toBe('000000');
    await until(async () => expect((await chatOf(customer)).length).toBe(2));
    const out = (await chatOf(customer))[1]!;
    expect(out).toMatchObject({
      direction: 'out',
      type: 'file',
      file_name: 'doc.pdf',
      size: corpus('doc.pdf').length,
    });
    const served = await t.app.inject({ method: 'GET', url: out.media_url! });
    expect(served.headers['content-disposition']).toMatch(/^attachment; filename="doc\.pdf"/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(corpus('doc.pdf'))).toBe(true);

    // The customer's own media carries its name too; text has none.
    const [text] = await chatOf(customer);
    expect(text).toMatchObject({ file_name: null, size: null, duration_ms: null });
    const voice = await sandboxSend({
      account: seat.phones[0],
      customer,
      type: 'audio',
      media: { data: corpus('voice.ogg').toString('base64'), file_name: 'note.ogg' },
    });
    expect(voice.data).toMatchObject({ type: 'audio', file_name: 'note.ogg' });
  });

  it('a blocked chat: the customer sees the message refused', async () => {
    const customer = nextPhone('+4481');
    await sandboxSend({ account: seat.phones[0], customer, content: 'first' });
    const sessionId = (await record(customer))[0]!.session_id;
    await t.call('/v1/seat/chat/block', { session_id: sessionId }, seat.token);
    const res = await sandboxSend({ account: seat.phones[0], customer, content: 'anyone?' });
    expect(res.data).toMatchObject({ blocked: true, content: 'anyone?' });
    expect(await record(customer)).toHaveLength(1);
  });

  it('an account the sandbox does not serve (a Telegram bot, an unknown number) answers 400007', async () => {
    const bot = nextPhone('+1666');
    await t.services.accounts.add({ phone: bot, label: 'bot', channel: 'telegram' });
    await t.services.accounts.assign(bot, 'sandbox-owner');
    const listed = (await get(SANDBOX_PATHS.accounts)).data.list as unknown as {
      send_phone: string;
    }[];
    expect(listed.map((a) => a.send_phone)).not.toContain(bot);
    for (const account of [bot, '+19990000002']) {
      const res = await sandboxSend({ account, customer: nextPhone(), content: 'hi' });
      expect(res.code).toBe('400007');
      const chat = await get(
        `${SANDBOX_PATHS.chat}?account=${encodeURIComponent(account)}&customer=${encodeURIComponent(nextPhone())}`,
      );
      expect(chat.code).toBe('400007');
    }
  });

  it('bad input answers 100001 / 400005', async () => {
    expect((await sandboxSend({ account: seat.phones[0], customer: 'x' })).code).toBe('400005');
    expect(
      (await sandboxSend({ account: seat.phones[0], customer: nextPhone(), type: 'image' })).code,
    ).toBe('100001');
  });
});

describe('sandbox off', () => {
  it('its routes answer not-found', async () => {
    const off = await createTestApp();
    try {
      for (const url of [SANDBOX_PATHS.accounts, SANDBOX_PATHS.chat]) {
        const res = await off.app.inject({ method: 'GET', url });
        expect(JSON.parse(res.body)).toMatchObject({ code: '404001' });
      }
      const res = await off.app.inject({
        method: 'POST',
        url: SANDBOX_PATHS.send,
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(JSON.parse(res.body)).toMatchObject({ code: '404001' });
    } finally {
      await off.close();
    }
  });
});
