import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { adminCall, createAdmin } from './admin-helpers.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import type { TestApp } from './helper.js';
import { corpus, fetchMedia, uploaded } from './media-helpers.js';
import {
  GRAPH_ERRORS,
  hubSignature,
  WhatsAppGraphServer,
  type GraphNumber,
} from './whatsapp-graph-api-server.js';
import {
  bindNumber,
  chatRecord,
  deliverWebhook,
  waitFor,
  whatsappApp,
} from './whatsapp-helpers.js';

/**
 * The WhatsApp channel against a local server that follows Meta's Cloud API reference (Graph
 * API v21.0, test/whatsapp-graph-api-server.ts): binding from the admin console, the webhook's
 * verification and signature, every inbound kind, redelivery, outbound text and media, statuses
 * to ticks, an expired token, and secrets kept out of answers and logs.
 */
const graph = new WhatsAppGraphServer();
let t: TestApp;
let lines: string[];
let adminToken: string;
let seat: SeatFixture;
let number: GraphNumber;
let accountId: number;
let waN = 0;

const inboundCount = async () =>
  Number(
    (await sql<{ n: number }>`select count(*) as n from inbound_messages`.execute(t.db)).rows[0]!.n,
  );
const nextWaId = () =>
  `49151${String(process.pid % 1000).padStart(3, '0')}${String(++waN).padStart(5, '0')}`;

beforeAll(async () => {
  await graph.start();
  ({ t, lines } = await whatsappApp(graph));
  adminToken = await createAdmin(t, 'wa-admin');
  seat = await createSeat(t, 'wa-seat');
  number = graph.addNumber({ verifiedName: 'Lisbon Tiles', qualityRating: 'GREEN' });
  accountId = await bindNumber(t, adminToken, seat, number);
});
afterAll(async () => {
  await t?.close();
  await graph.stop();
});

/** A customer writes `message` (its `type` and part) to the bound number. */
async function customerSends(
  message: Record<string, unknown>,
  customer = { wa_id: nextWaId(), name: 'Ana Souza' },
  wamid?: string,
) {
  const payload = graph.inbound(number, customer, message, wamid);
  const res = await deliverWebhook(t, number, payload);
  expect(res.status, res.body).toBe(200);
  return { customer: `+${customer.wa_id}`, payload };
}

describe('binding a number from the admin console', () => {
  it('checks the credentials with GET /{phone-number-id} and shows what Meta needs', async () => {
    const status = await adminCall(
      t,
      '/v1/admin/accounts/whatsappStatus',
      { account_id: accountId },
      adminToken,
    );
    expect(status.code, status.raw).toBe('000000');
    expect(status.data).toMatchObject({
      phone_number_id: number.phoneNumberId,
      waba_id: number.wabaId,
      verified_name: 'Lisbon Tiles',
      quality_rating: 'GREEN',
      state: 'ok',
      last_error: null,
    });
    expect(status.data!.webhook_url).toMatch(
      new RegExp(`^http://[^/]+/v1/whatsapp/webhook/${number.phoneNumberId}$`),
    );
    expect(status.data!.verify_token).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    expect(graph.requests).toContainEqual({
      method: 'GET',
      path: `/v21.0/${number.phoneNumberId}`,
      auth: `Bearer ${number.token}`,
    });
    const account = await t.services.accounts.require(seat.phones[0]!);
    expect(account.channel).toBe('whatsapp');
  });

  it('refuses a token the Graph API refuses, and stores nothing', async () => {
    const other = await createSeat(t, 'wa-refused');
    const id = (await t.services.accounts.require(other.phones[0]!)).id;
    const n = graph.addNumber();
    graph.revokeToken(n.token);
    const res = await adminCall(
      t,
      '/v1/admin/accounts/setChannel',
      {
        account_id: id,
        channel: 'whatsapp',
        phone_number_id: n.phoneNumberId,
        waba_id: n.wabaId,
        access_token: n.token,
        app_secret: n.appSecret,
      },
      adminToken,
    );
    expect(res.code).toBe('100001');
    expect(res.raw).toContain('access_token');
    expect(res.raw).toContain('190');
    expect((await t.services.accounts.require(other.phones[0]!)).channel).toBe('platform');
    const status = await adminCall(
      t,
      '/v1/admin/accounts/whatsappStatus',
      { account_id: id },
      adminToken,
    );
    expect(status.data).toBeNull();
  });

  it("refuses a phone number ID the token cannot see (another business's)", async () => {
    const other = await createSeat(t, 'wa-foreign');
    const id = (await t.services.accounts.require(other.phones[0]!)).id;
    const foreign = graph.addNumber();
    const res = await adminCall(
      t,
      '/v1/admin/accounts/setChannel',
      {
        account_id: id,
        channel: 'whatsapp',
        phone_number_id: foreign.phoneNumberId,
        waba_id: foreign.wabaId,
        access_token: number.token,
        app_secret: number.appSecret,
      },
      adminToken,
    );
    expect(res.code).toBe('100001');
    expect(res.raw).toContain('phone_number_id');
    expect((await t.services.accounts.require(other.phones[0]!)).channel).toBe('platform');
  });

  it('never answers nor logs the access token or the app secret', async () => {
    const list = await adminCall(t, '/v1/admin/accounts/list', {}, adminToken);
    const status = await adminCall(
      t,
      '/v1/admin/accounts/whatsappStatus',
      { account_id: accountId },
      adminToken,
    );
    const audit = await adminCall(t, '/v1/admin/audit/list', {}, adminToken);
    expect(audit.raw).toContain(number.phoneNumberId);
    for (const raw of [list.raw, status.raw, audit.raw, lines.join('\n')]) {
      expect(raw).not.toContain(number.token);
      expect(raw).not.toContain(number.appSecret);
    }
    // The log did see the binding call (so the check above looked at real lines).
    expect(lines.join('\n')).toContain('/v1/admin/accounts/setChannel');
  });
});

describe('the public URL', () => {
  it('builds the webhook URL shown to the administrator when PARLEY_PUBLIC_URL is set', async () => {
    const { t: behindProxy } = await whatsappApp(graph, {
      publicUrl: 'https://chat.example.com/parley',
    });
    try {
      const admin = await createAdmin(behindProxy, 'wa-proxy-admin');
      const s = await createSeat(behindProxy, 'wa-proxy-seat');
      const n = graph.addNumber();
      const id = await bindNumber(behindProxy, admin, s, n);
      const status = await adminCall(
        behindProxy,
        '/v1/admin/accounts/whatsappStatus',
        { account_id: id },
        admin,
      );
      // Not the request's own address (inject's localhost): the one Meta can reach.
      expect(status.data!.webhook_url).toBe(
        `https://chat.example.com/parley/v1/whatsapp/webhook/${n.phoneNumberId}`,
      );
    } finally {
      await behindProxy.close();
    }
  });
});

describe('the webhook', () => {
  const verify = (query: string) =>
    t.app.inject({ method: 'GET', url: `/v1/whatsapp/webhook/${number.phoneNumberId}?${query}` });

  it("answers Meta's verification with the challenge, only with the verify token", async () => {
    const { verify_token } = (
      await adminCall(t, '/v1/admin/accounts/whatsappStatus', { account_id: accountId }, adminToken)
    ).data!;
    const ok = await verify(
      `hub.mode=subscribe&hub.verify_token=${encodeURIComponent(verify_token)}&hub.challenge=1158201444`,
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const wrong = await verify('hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).not.toContain('1');
    const mode = await verify(
      `hub.mode=unsubscribe&hub.verify_token=${encodeURIComponent(verify_token)}&hub.challenge=2`,
    );
    expect(mode.statusCode).toBe(403);
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/v1/whatsapp/webhook/999999999?hub.mode=subscribe&hub.verify_token=${verify_token}&hub.challenge=3`,
    });
    expect(unknown.statusCode).toBe(403);
  });

  it('a forged or missing signature changes nothing', async () => {
    const customer = { wa_id: nextWaId(), name: 'Mallory' };
    const payload = graph.inbound(number, customer, { type: 'text', text: { body: 'forged' } });
    const forged = await deliverWebhook(t, number, payload, `sha256=${'0'.repeat(64)}`);
    expect(forged.status).toBe(401);
    const otherSecret = await deliverWebhook(
      t,
      number,
      payload,
      hubSignature('not-the-secret', JSON.stringify(payload)),
    );
    expect(otherSecret.status).toBe(401);
    const missing = await t.app.inject({
      method: 'POST',
      url: `/v1/whatsapp/webhook/${number.phoneNumberId}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expect(missing.statusCode).toBe(401);
    const none = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: seat.phones[0]!, receiver_phone: `+${customer.wa_id}`, page_size: 50 },
      seat.token,
    );
    expect(none.code).toBe('400001'); // no chat was made
    const rows = await sql<{ n: number }>`select count(*) as n from inbound_messages`.execute(t.db);
    const before = Number(rows.rows[0]!.n);
    // A body signed right but past the cap is refused before it is read.
    const big = await t.app.inject({
      method: 'POST',
      url: `/v1/whatsapp/webhook/${number.phoneNumberId}`,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' },
      payload: 'x'.repeat(300 * 1024),
    });
    expect(big.statusCode).toBe(400);
    expect(JSON.parse(big.body).code).toBe('100001');
    const after = await sql<{ n: number }>`select count(*) as n from inbound_messages`.execute(
      t.db,
    );
    expect(Number(after.rows[0]!.n)).toBe(before);
  });
});

describe('inbound messages', () => {
  it("a text becomes a chat named after the customer's profile, a message and an event", async () => {
    const { customer } = await customerSends({
      type: 'text',
      text: { body: 'Olá, têm azulejos?' },
    });
    const list = await chatRecord(t, seat, customer);
    expect(list.map((m) => [m.direction, m.type, m.content])).toEqual([
      ['in', 'text', 'Olá, têm azulejos?'],
    ]);
    const groups = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: seat.groups.ungrouped, user_time_type: 1, page_size: 50 },
      seat.token,
    );
    const chat = groups.data.account_list.find((c) => c.receiver_phone === customer);
    expect(chat?.customer_name).toBe('Ana Souza');
    const events = await sql<{ type: string; data: string }>`
      select type, data from events where seat_id = ${seat.seatId} order by seq`.execute(t.db);
    expect(
      events.rows.some((e) => e.type === 'message.created' && e.data.includes('têm azulejos')),
    ).toBe(true);
  });

  it("opening the chat marks the customer's newest message read on WhatsApp", async () => {
    const who = { wa_id: nextWaId(), name: 'Bia' };
    await customerSends(
      { type: 'text', text: { body: 'first' } },
      who,
      `wamid.first-${process.pid}`,
    );
    const { customer } = await customerSends(
      { type: 'text', text: { body: 'second' } },
      who,
      `wamid.second-${process.pid}`,
    );
    expect(graph.readMarks).not.toContain(`wamid.second-${process.pid}`);
    await chatRecord(t, seat, customer);
    await waitFor(async () => expect(graph.readMarks).toContain(`wamid.second-${process.pid}`));
    expect(graph.readMarks).not.toContain(`wamid.first-${process.pid}`);
  });

  it('a redelivered webhook is taken once (by its wamid)', async () => {
    const who = { wa_id: nextWaId(), name: 'Rui' };
    const wamid = `wamid.redelivered-${process.pid}`;
    const first = await customerSends({ type: 'text', text: { body: 'once' } }, who, wamid);
    await customerSends({ type: 'text', text: { body: 'once' } }, who, wamid);
    await deliverWebhook(t, number, first.payload);
    expect((await chatRecord(t, seat, first.customer)).map((m) => m.content)).toEqual(['once']);
  });

  const mediaCases = [
    { type: 'image', file: 'photo.jpg', mime: 'image/jpeg', shown: 'image', caption: 'this one' },
    { type: 'sticker', file: 'photo.webp', mime: 'image/webp', shown: 'image', caption: '' },
    {
      type: 'audio',
      file: 'voice.ogg',
      mime: 'audio/ogg; codecs=opus',
      shown: 'audio',
      caption: '',
    },
    { type: 'video', file: 'clip.mp4', mime: 'video/mp4', shown: 'video', caption: 'a clip' },
    {
      type: 'document',
      file: 'doc.pdf',
      mime: 'application/pdf',
      shown: 'file',
      caption: 'invoice',
    },
  ] as const;
  it.each(mediaCases)(
    'a $type is fetched through the Graph API media URL and stored as a Parley media',
    async ({ type, file, mime, shown, caption }) => {
      const bytes = corpus(file);
      const mediaId = graph.addCustomerMedia(bytes, mime, file);
      const part: Record<string, unknown> = { id: mediaId, mime_type: mime };
      if (caption) part.caption = caption;
      if (type === 'document') part.filename = 'invoice-42.pdf';
      if (type === 'audio') part.voice = true;
      const before = graph.requests.length;
      const { customer } = await customerSends({ type, [type]: part });
      const [m] = await chatRecord(t, seat, customer);
      expect(m).toMatchObject({ direction: 'in', type: shown, content: caption });
      expect(m!.media).not.toBeNull();
      if (type === 'document') expect(m!.media!.file_name).toBe('invoice-42.pdf');
      const got = await fetchMedia(t, m!.media!.url);
      expect(got.statusCode).toBe(200);
      expect(Buffer.compare(got.rawPayload, bytes)).toBe(0);
      // GET /{media-id}, then its URL, both with the number's token.
      const asked = graph.requests.slice(before);
      expect(asked).toContainEqual({
        method: 'GET',
        path: `/v21.0/${mediaId}`,
        auth: `Bearer ${number.token}`,
      });
      expect(asked).toContainEqual({
        method: 'GET',
        path: `/download/${mediaId}`,
        auth: `Bearer ${number.token}`,
      });
    },
  );

  it('a media WhatsApp no longer has still reaches the operator, as its kind in brackets', async () => {
    const { customer } = await customerSends({
      type: 'image',
      image: { id: '123456789', mime_type: 'image/jpeg', caption: '' },
    });
    const [m] = await chatRecord(t, seat, customer);
    expect(m).toMatchObject({ type: 'text', content: '[image]', media: null });
  });

  it('a webhook for a number no account holds answers as a bad signature and stores nothing', async () => {
    const stranger = graph.addNumber();
    const payload = graph.inbound(
      stranger,
      { wa_id: nextWaId(), name: 'X' },
      { type: 'text', text: { body: 'x' } },
    );
    const before = await inboundCount();
    // Signed with its own secret (Parley has none for it), and forged: both as a bound
    // number's forged delivery answers, so a caller cannot list the bound numbers.
    const signed = await deliverWebhook(t, stranger, payload);
    const forged = await deliverWebhook(t, stranger, payload, `sha256=${'0'.repeat(64)}`);
    const boundForged = await deliverWebhook(t, number, payload, `sha256=${'0'.repeat(64)}`);
    for (const res of [signed, forged, boundForged]) {
      expect(res.status).toBe(401);
      expect(res.body).toBe('Bad signature');
    }
    expect(await inboundCount()).toBe(before);
  });

  it('a location and contact cards are shown as readable text', async () => {
    const loc = await customerSends({
      type: 'location',
      location: {
        latitude: 38.7223,
        longitude: -9.1393,
        name: 'Loja Azul',
        address: 'Rua Augusta 1, Lisboa',
      },
    });
    const [where] = await chatRecord(t, seat, loc.customer);
    expect(where!.type).toBe('text');
    expect(where!.content).toContain('Loja Azul');
    expect(where!.content).toContain('Rua Augusta 1, Lisboa');
    expect(where!.content).toContain('38.7223, -9.1393');
    const card = await customerSends({
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'João Lima', first_name: 'João' },
          phones: [{ phone: '+351 912 345 678', wa_id: '351912345678', type: 'CELL' }],
          emails: [{ email: 'joao@example.com', type: 'WORK' }],
        },
      ],
    });
    const [who] = await chatRecord(t, seat, card.customer);
    expect(who!.content).toBe('👤 João Lima: +351 912 345 678, joao@example.com');
  });
});

describe('outbound messages and statuses', () => {
  let n = 0;
  async function operatorSends(customer: string, body: Record<string, unknown>) {
    const res = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        client_msg_id: `wa-${process.pid}-${++n}`,
        ...body,
      },
      seat.token,
    );
    expect(res.code, res.raw).toBe('000000');
    return res.data.msg_id;
  }
  const statusOf = async (customer: string, msgId: number) =>
    (await chatRecord(t, seat, customer)).find((m) => m.msg_id === msgId)?.status;

  it('a text goes to POST /{id}/messages and its statuses move the tick to read', async () => {
    const { customer } = await customerSends({ type: 'text', text: { body: 'price?' } });
    const waId = customer.slice(1);
    const msgId = await operatorSends(customer, { type: 'text', content: '12 € each' });
    const sent = await waitFor(async () => {
      const [s] = graph.sentTo(number.phoneNumberId, waId);
      expect(s).toBeDefined();
      return s!;
    });
    expect(sent.body).toMatchObject({
      messaging_product: 'whatsapp',
      to: waId,
      type: 'text',
      text: { body: '12 € each' },
    });
    await waitFor(async () => expect(await statusOf(customer, msgId)).toBe('sent'));
    for (const s of ['delivered', 'read'] as const) {
      const res = await deliverWebhook(t, number, graph.status(number, sent.wamid, waId, s));
      expect(res.status).toBe(200);
      expect(await statusOf(customer, msgId)).toBe(s);
    }
    // A late 'delivered' never moves the tick back.
    await deliverWebhook(t, number, graph.status(number, sent.wamid, waId, 'delivered'));
    expect(await statusOf(customer, msgId)).toBe('read');
    const events = await sql<{ data: string }>`
      select data from events where seat_id = ${seat.seatId} and type = 'message.status'`.execute(
      t.db,
    );
    expect(
      events.rows.some((e) => e.data.includes(`"msg_id":${msgId}`) && e.data.includes('read')),
    ).toBe(true);
  });

  it("a customer's reply (context.message_id) quotes the operator's message it answers", async () => {
    const ana = { wa_id: nextWaId(), name: 'Ana Souza' };
    const { customer } = await customerSends({ type: 'text', text: { body: 'sizes?' } }, ana);
    const msgId = await operatorSends(customer, { type: 'text', content: '20 and 30 cm' });
    const sent = await waitFor(async () => {
      const [s] = graph.sentTo(number.phoneNumberId, ana.wa_id);
      expect(s).toBeDefined();
      return s!;
    });
    await waitFor(async () => expect(await statusOf(customer, msgId)).toBe('sent'));
    await customerSends(
      {
        type: 'text',
        text: { body: 'the 30 one' },
        context: { from: number.displayPhoneNumber, id: sent.wamid },
      },
      ana,
    );
    const reply = (await chatRecord(t, seat, customer)).find((m) => m.content === 'the 30 one');
    expect(reply?.reply_to).toBe(msgId);
    expect(reply?.quote).toMatchObject({
      msg_id: msgId,
      direction: 'out',
      preview: '20 and 30 cm',
    });
  });

  it("an operator's reply quotes the customer's message on WhatsApp (context.message_id)", async () => {
    const wamid = `wamid.reply-${process.pid}-${Date.now()}`;
    const ana = { wa_id: nextWaId(), name: 'Ana Souza' };
    const { customer } = await customerSends({ type: 'text', text: { body: 'blue?' } }, ana, wamid);
    const asked = (await chatRecord(t, seat, customer)).find((m) => m.content === 'blue?');
    expect(asked).toBeDefined();
    await operatorSends(customer, { type: 'text', content: 'yes, blue', reply_to: asked!.msg_id });
    await operatorSends(customer, { type: 'text', content: 'anything else?' });
    const sent = await waitFor(async () => {
      const all = graph.sentTo(number.phoneNumberId, ana.wa_id);
      expect(all).toHaveLength(2);
      return all;
    });
    const byText = (text: string) =>
      sent.find((s) => (s.body.text as { body: string }).body === text)!.body;
    expect(byText('yes, blue').context).toEqual({ message_id: wamid });
    expect(byText('anything else?').context).toBeUndefined();
  });

  it('a failed status shows the failure on the message', async () => {
    const { customer } = await customerSends({ type: 'text', text: { body: 'hi' } });
    const waId = customer.slice(1);
    const msgId = await operatorSends(customer, { type: 'text', content: 'will fail later' });
    const sent = await waitFor(async () => {
      const [s] = graph.sentTo(number.phoneNumberId, waId);
      expect(s).toBeDefined();
      return s!;
    });
    await waitFor(async () => expect(await statusOf(customer, msgId)).toBe('sent'));
    await deliverWebhook(
      t,
      number,
      graph.status(number, sent.wamid, waId, 'failed', GRAPH_ERRORS.undeliverable),
    );
    expect(await statusOf(customer, msgId)).toBe('failed');
  });

  it('an image is uploaded with /{id}/media first, then sent by its id', async () => {
    const { customer } = await customerSends({ type: 'text', text: { body: 'photo please' } });
    const waId = customer.slice(1);
    const photo = await uploaded(t, seat.token, 'image', 'photo.png');
    const msgId = await operatorSends(customer, {
      type: 'image',
      content: 'our blue tile',
      media_id: photo.media_id,
    });
    const sent = await waitFor(async () => {
      const [s] = graph.sentTo(number.phoneNumberId, waId);
      expect(s).toBeDefined();
      return s!;
    });
    expect(sent.type).toBe('image');
    const image = sent.body.image as { id: string; caption: string };
    expect(image.caption).toBe('our blue tile');
    const media = graph.media.get(image.id);
    expect(media?.owner).toBe(number.phoneNumberId);
    expect(media?.mime).toBe('image/png');
    expect(Buffer.compare(media!.bytes, corpus('photo.png'))).toBe(0);
    await waitFor(async () => expect(await statusOf(customer, msgId)).toBe('sent'));
  });

  it('an expired token fails the send and shows on the account with its error', async () => {
    const other = await createSeat(t, 'wa-expiring');
    const n2 = graph.addNumber();
    await bindNumber(t, adminToken, other, n2);
    const id = (await t.services.accounts.require(other.phones[0]!)).id;
    const customer = nextPhone('+35191');
    await deliverWebhook(
      t,
      n2,
      graph.inbound(
        n2,
        { wa_id: customer.slice(1), name: 'Eva' },
        {
          type: 'text',
          text: { body: 'hello' },
        },
      ),
    );
    graph.revokeToken(n2.token);
    const res = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: other.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'are you there?',
        client_msg_id: `wa-expired-${process.pid}`,
      },
      other.token,
    );
    expect(res.code, res.raw).toBe('000000');
    await waitFor(async () => {
      const list = await t.call(
        '/v1/seat/chat/getChatRecord',
        { send_phone: other.phones[0]!, receiver_phone: customer, page_size: 50 },
        other.token,
      );
      expect(list.data.list.find((m) => m.direction === 'out')?.status).toBe('failed');
    });
    const status = await adminCall(
      t,
      '/v1/admin/accounts/whatsappStatus',
      { account_id: id },
      adminToken,
    );
    expect(status.data).toMatchObject({ state: 'token_invalid' });
    expect(status.data!.last_error).toContain('190');
    expect(status.data!.last_error_at).toBeGreaterThan(0);
    expect(status.raw).not.toContain(n2.token);
  });

  it("a token revoked meanwhile shows in the account list, as a bot's poll state, when a read mark meets it", async () => {
    const other = await createSeat(t, 'wa-listed');
    const n2 = graph.addNumber({ verifiedName: 'Porto Tiles' });
    await bindNumber(t, adminToken, other, n2);
    const listed = async () => {
      const res = await adminCall(
        t,
        '/v1/admin/accounts/list',
        { seat_id: other.seatId },
        adminToken,
      );
      expect(res.code, res.raw).toBe('000000');
      return res.data.list[0]!;
    };
    expect((await listed()).whatsapp).toEqual({
      verified_name: 'Porto Tiles',
      state: 'ok',
      last_error: null,
      last_error_at: null,
    });
    // Another channel's account has none.
    const plain = await createSeat(t, 'wa-plain');
    const res = await adminCall(
      t,
      '/v1/admin/accounts/list',
      { seat_id: plain.seatId },
      adminToken,
    );
    expect(res.data.list[0]).toMatchObject({ channel: 'platform', whatsapp: null });

    const customer = nextPhone('+35192');
    await deliverWebhook(
      t,
      n2,
      graph.inbound(
        n2,
        { wa_id: customer.slice(1), name: 'Rita' },
        { type: 'text', text: { body: 'oi' } },
      ),
    );
    graph.revokeToken(n2.token);
    // Opening the chat sends the read mark: Meta answers 190.
    await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: other.phones[0]!, receiver_phone: customer, page_size: 50 },
      other.token,
    );
    await waitFor(async () => expect((await listed()).whatsapp?.state).toBe('token_invalid'));
    const shown = (await listed()).whatsapp!;
    expect(shown.last_error).toContain('190');
    expect(shown.last_error_at).toBeGreaterThan(0);
    expect(JSON.stringify(shown)).not.toContain(n2.token);

    // Its deliveries and failures count in the overview and are listed in the outbox, as every
    // channel's.
    const sent = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: other.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'still there?',
        client_msg_id: `wa-listed-${process.pid}`,
      },
      other.token,
    );
    expect(sent.code, sent.raw).toBe('000000');
    const failed = await waitFor(async () => {
      const res = await adminCall(
        t,
        '/v1/admin/outbox/list',
        { status: 'failed', seat_id: other.seatId },
        adminToken,
      );
      expect(res.data.list).toHaveLength(1);
      return res.data.list[0]!;
    });
    expect(failed).toMatchObject({ msg_id: sent.data.msg_id, send_phone: other.phones[0] });
    expect(failed.last_error).toContain('WhatsApp 190');
    const overview = await adminCall(t, '/v1/admin/overview', {}, adminToken);
    expect(overview.data.seats.find((s) => s.seat_id === other.seatId)).toMatchObject({
      messages_in_today: 1,
      messages_out_today: 1,
      outbox_failed: 1,
      outbox_pending: 0,
    });
  });

  it('"delete for all" is refused for a WhatsApp chat; "delete for me" works', async () => {
    const { customer } = await customerSends({ type: 'text', text: { body: 'ok' } });
    const msgId = await operatorSends(customer, { type: 'text', content: 'oops, wrong chat' });
    await waitFor(async () => expect(await statusOf(customer, msgId)).toBe('sent'));
    const all = await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: msgId, scope: 'all' },
      seat.token,
    );
    expect(all.code).toBe('400003');
    expect(all.data).toMatchObject({ reason: 'channel_cannot_delete' });
    const shown = (await chatRecord(t, seat, customer)).find((m) => m.msg_id === msgId);
    expect(shown?.deleted).toBe(false);
    const outbox = await t.db
      .selectFrom('outbox')
      .select('kind')
      .where('msg_id', '=', msgId)
      .execute();
    expect(outbox.map((o) => o.kind)).toEqual(['message']);
    const me = await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: msgId, scope: 'me' },
      seat.token,
    );
    expect(me.code, me.raw).toBe('000000');
    expect((await chatRecord(t, seat, customer)).find((m) => m.msg_id === msgId)).toBeUndefined();
  });

  it('a rate limit (4 / 80007) is retried by the outbox', async () => {
    const { customer } = await customerSends({ type: 'text', text: { body: 'busy?' } });
    const waId = customer.slice(1);
    graph.failNextSends(number.phoneNumberId, GRAPH_ERRORS.accountRateLimit);
    // The outbox's back-off honours the channel's asked pause; shortened here to keep the test quick.
    const msgId = await operatorSends(customer, { type: 'text', content: 'after the limit' });
    await waitFor(async () => {
      const row = await t.db
        .selectFrom('outbox')
        .select(['status', 'last_error', 'attempts'])
        .where('msg_id', '=', msgId)
        .executeTakeFirstOrThrow();
      expect(row.last_error).toContain('80007');
      expect(row.status).not.toBe('failed');
    });
    expect(graph.sentTo(number.phoneNumberId, waId)).toEqual([]);
  });
});

describe('reactions', () => {
  /** The customer's reaction (`emoji` "" takes it back) to the message of `target`'s wamid. */
  const reacts = (
    who: { wa_id: string; name: string },
    target: string,
    emoji: string,
    wamid?: string,
  ) => customerSends({ type: 'reaction', reaction: { message_id: target, emoji } }, who, wamid);
  const reactionEvents = async (msgId: number) =>
    (
      await sql<{ data: string }>`
        select data from events where seat_id = ${seat.seatId} and type = 'message.updated'
        order by seq`.execute(t.db)
    ).rows
      .map((e) => JSON.parse(e.data) as { message: { msg_id: number; reaction: string | null } })
      .filter((e) => e.message.msg_id === msgId)
      .map((e) => e.message.reaction);

  it("a reaction to the customer's own message is shown on it, pushed, and taken once", async () => {
    const who = { wa_id: nextWaId(), name: 'Leo' };
    const wamid = `wamid.liked-${process.pid}`;
    const { customer } = await customerSends(
      { type: 'text', text: { body: 'my order' } },
      who,
      wamid,
    );
    const [message] = await chatRecord(t, seat, customer);
    expect(message?.reaction).toBeNull();
    const reaction = await reacts(who, wamid, '👍');
    const shown = await chatRecord(t, seat, customer);
    // A reaction is its message's, never a message of its own.
    expect(shown.map((m) => [m.content, m.reaction])).toEqual([['my order', '👍']]);
    expect(await reactionEvents(message!.msg_id)).toEqual(['👍']);
    // Meta delivers it again: nothing changes, nothing is pushed again.
    expect((await deliverWebhook(t, number, reaction.payload)).status).toBe(200);
    expect(await reactionEvents(message!.msg_id)).toEqual(['👍']);
    // Changed, then taken back (an empty emoji).
    await reacts(who, wamid, '❤️');
    expect((await chatRecord(t, seat, customer))[0]?.reaction).toBe('❤️');
    await reacts(who, wamid, '');
    expect((await chatRecord(t, seat, customer))[0]?.reaction).toBeNull();
    expect(await reactionEvents(message!.msg_id)).toEqual(['👍', '❤️', null]);
    // The older reaction redelivered late does not come back.
    await deliverWebhook(t, number, reaction.payload);
    expect((await chatRecord(t, seat, customer))[0]?.reaction).toBeNull();
  });

  it("a reaction to the operator's message finds it by the wamid it was delivered with", async () => {
    const who = { wa_id: nextWaId(), name: 'Mia' };
    const { customer } = await customerSends({ type: 'text', text: { body: 'colours?' } }, who);
    const res = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'blue and green',
        client_msg_id: `wa-react-${process.pid}`,
      },
      seat.token,
    );
    expect(res.code, res.raw).toBe('000000');
    const sent = await waitFor(async () => {
      const [s] = graph.sentTo(number.phoneNumberId, who.wa_id);
      expect(s).toBeDefined();
      return s!;
    });
    await waitFor(async () => {
      const out = (await chatRecord(t, seat, customer)).find((m) => m.msg_id === res.data.msg_id);
      expect(out?.status).toBe('sent');
    });
    await reacts(who, sent.wamid, '😍');
    const list = await chatRecord(t, seat, customer);
    expect(list.find((m) => m.msg_id === res.data.msg_id)?.reaction).toBe('😍');
    expect(list.find((m) => m.direction === 'in')?.reaction).toBeNull();
  });

  it('a reaction to a message Parley does not know changes nothing and the webhook succeeds', async () => {
    const who = { wa_id: nextWaId(), name: 'Noa' };
    const { customer } = await customerSends({ type: 'text', text: { body: 'hello' } }, who);
    const before = await sql<{ n: number }>`select count(*) as n from events`.execute(t.db);
    await reacts(who, `wamid.unknown-${process.pid}`, '👍');
    // Nor another customer's message: one chat's customer cannot react in another's chat.
    const other = { wa_id: nextWaId(), name: 'Ivo' };
    const foreign = `wamid.foreign-${process.pid}`;
    await customerSends({ type: 'text', text: { body: 'mine' } }, other, foreign);
    const after = await sql<{ n: number }>`select count(*) as n from events`.execute(t.db);
    await reacts(who, foreign, '👎');
    const last = await sql<{ n: number }>`select count(*) as n from events`.execute(t.db);
    expect(Number(last.rows[0]!.n)).toBe(Number(after.rows[0]!.n));
    expect(Number(after.rows[0]!.n)).toBeGreaterThan(Number(before.rows[0]!.n));
    expect((await chatRecord(t, seat, customer)).map((m) => m.reaction)).toEqual([null]);
    expect((await chatRecord(t, seat, `+${other.wa_id}`)).map((m) => m.reaction)).toEqual([null]);
  });
});

describe('the 24-hour window', () => {
  async function chatOf(who: SeatFixture, group: number, customer: string) {
    // Either tab: a customer who wrote over a day ago is in "earlier".
    for (const tab of [1, 2] as const) {
      const groups = await t.call(
        '/v1/seat/chat/getGroupInfo',
        { group_id: group, user_time_type: tab, page_size: 100 },
        who.token,
      );
      expect(groups.code, groups.raw).toBe('000000');
      const chat = groups.data.account_list.find((c) => c.receiver_phone === customer);
      if (chat) return chat;
    }
    throw new Error(`no chat with ${customer}`);
  }
  /** The chat as the seat's last message.created event showed it to the consoles. */
  async function pushedChat(customer: string) {
    const rows = await sql<{ data: string }>`select data from events
      where seat_id = ${seat.seatId} and type = 'message.created' order by seq desc`.execute(t.db);
    const found = rows.rows
      .map((r) => JSON.parse(r.data) as { session: { receiver_phone: string } })
      .find((d) => d.session.receiver_phone === customer);
    return found!.session as unknown as { can_reply: boolean; reply_until: number | null };
  }
  const ago = (ms: number) => ({ timestamp: String(Math.floor((Date.now() - ms) / 1000)) });

  it("a chat's answer says until when free text goes: 24 hours after the customer's last message, moved by each one", async () => {
    const who = { wa_id: nextWaId(), name: 'Rui' };
    // The customer wrote a day and an hour ago: the window has closed.
    const { customer } = await customerSends(
      { type: 'text', text: { body: 'olá' }, ...ago(25 * 3600_000) },
      who,
    );
    const closed = await chatOf(seat, seat.groups.ungrouped, customer);
    expect(closed.can_reply).toBe(false);
    expect(closed.reply_until).toBeLessThan(Date.now());
    expect(closed.reply_until).toBeGreaterThan(Date.now() - 3600_000 - 60_000);

    // They write again: the window opens for 24 hours, in the list and in the pushed event.
    const before = Date.now();
    await customerSends({ type: 'text', text: { body: 'ainda aí?' } }, who);
    const open = await chatOf(seat, seat.groups.ungrouped, customer);
    expect(open.can_reply).toBe(true);
    expect(open.reply_until).toBeGreaterThanOrEqual(before - 1000 + 24 * 3600_000);
    expect(open.reply_until).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    expect(await pushedChat(customer)).toMatchObject({
      can_reply: true,
      reply_until: open.reply_until,
    });
  });

  it('past the window the approved templates are what the number offers', async () => {
    graph.addTemplate(number.wabaId, {
      name: 'order_update',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', text: 'Pedido' },
        { type: 'BODY', text: 'Olá {{1}}, o seu pedido {{2}} está pronto. {{1}}, obrigado!' },
      ],
    });
    graph.addTemplate(number.wabaId, {
      name: 'promo_rejected',
      language: 'en_US',
      status: 'REJECTED',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Sale!' }],
    });
    const listed = await t.call(
      '/v1/seat/wa/templates',
      { send_phone: seat.phones[0]! },
      seat.token,
    );
    expect(listed.code, listed.raw).toBe('000000');
    expect(listed.data!.templates.filter((x) => x.name.startsWith('order_update'))).toEqual([
      {
        name: 'order_update',
        language: 'pt_BR',
        category: 'UTILITY',
        header: { text: 'Pedido', variables: 0 },
        body: 'Olá {{1}}, o seu pedido {{2}} está pronto. {{1}}, obrigado!',
        variables: 2,
        footer: null,
        buttons: [],
      },
    ]);
    expect(listed.data!.templates.map((x) => x.name)).not.toContain('promo_rejected');
  });

  it('a send refused for the window (131047) fails the message with that reason, not as retryable', async () => {
    const { customer } = await customerSends({ type: 'text', text: { body: 'hello' } });
    graph.failNextSends(number.phoneNumberId, GRAPH_ERRORS.reEngagement);
    const res = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'too late',
        client_msg_id: `wa-window-${process.pid}`,
      },
      seat.token,
    );
    expect(res.code, res.raw).toBe('000000');
    await waitFor(async () => {
      const m = (await chatRecord(t, seat, customer)).find((x) => x.msg_id === res.data.msg_id);
      expect(m?.status).toBe('failed');
    });
    const row = await t.db
      .selectFrom('outbox')
      .select(['status', 'last_error', 'attempts'])
      .where('msg_id', '=', res.data.msg_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.last_error).toContain('131047');
    // The number itself is fine: the refusal was the message's.
    const status = await adminCall(
      t,
      '/v1/admin/accounts/whatsappStatus',
      { account_id: accountId },
      adminToken,
    );
    expect(status.data!.state).toBe('ok');
  });

  it('a chat of a channel with no reply window can always be answered', async () => {
    const other = await createSeat(t, 'wa-platform-seat');
    await t.services.messages.receive({
      sendPhone: other.phones[0]!,
      receiverPhone: '+4477001234',
      content: 'hi',
    });
    const chat = await chatOf(other, other.groups.ungrouped, '+4477001234');
    expect(chat).toMatchObject({ can_reply: true, reply_until: null });
  });
});
