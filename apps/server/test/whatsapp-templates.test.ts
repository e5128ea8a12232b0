import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createAdmin } from './admin-helpers.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import type { TestApp } from './helper.js';
import {
  GRAPH_ERRORS,
  WhatsAppGraphServer,
  type GraphNumber,
  type GraphTemplate,
} from './whatsapp-graph-api-server.js';
import {
  bindNumber,
  chatRecord,
  deliverWebhook,
  waitFor,
  whatsappApp,
} from './whatsapp-helpers.js';

/**
 * WhatsApp message templates against the local Graph API (v21.0): sent from a chat past its
 * 24-hour window (/v1/seat/wa/sendTemplate) with every variable (a TEXT header's, the body's, a
 * URL button's suffix), checked against the number's approved list, replayed by client_msg_id;
 * a send refused for the window (131047) shows its reason; addSession's greeting on WhatsApp.
 */
const graph = new WhatsAppGraphServer();
let t: TestApp;
let seat: SeatFixture;
let number: GraphNumber;
let waN = 0;

const ORDER_UPDATE: GraphTemplate = {
  name: 'order_update',
  language: 'en_US',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
    { type: 'BODY', text: 'Hello {{1}}, your order {{2}} is ready.' },
    { type: 'FOOTER', text: 'Lisbon Tiles' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}' },
        { type: 'QUICK_REPLY', text: 'Stop' },
      ],
    },
  ],
};
const HELLO: GraphTemplate = {
  name: 'hello_world',
  language: 'en_US',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Hello, this is Lisbon Tiles. Reply to chat with us.' }],
};

/** A media header needs a media parameter Parley does not send: not offered. */
const PROMO_IMAGE: GraphTemplate = {
  name: 'promo_image',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'New tiles are in, {{1}}!' },
  ],
};

const nextWaId = () =>
  `35191${String(process.pid % 1000).padStart(3, '0')}${String(++waN).padStart(5, '0')}`;

beforeAll(async () => {
  await graph.start();
  ({ t } = await whatsappApp(graph));
  const adminToken = await createAdmin(t, 'tpl-admin');
  seat = await createSeat(t, 'tpl-seat');
  number = graph.addNumber({ verifiedName: 'Lisbon Tiles' });
  graph.addTemplate(number.wabaId, ORDER_UPDATE);
  graph.addTemplate(number.wabaId, HELLO);
  graph.addTemplate(number.wabaId, PROMO_IMAGE);
  await bindNumber(t, adminToken, seat, number);
});
afterAll(async () => {
  await t?.close();
  await graph.stop();
});

/** A customer who wrote a day and an hour ago (the window has closed); their chat's id. */
async function customerPastWindow() {
  const waId = nextWaId();
  const res = await deliverWebhook(
    t,
    number,
    graph.inbound(
      number,
      { wa_id: waId, name: 'Ana' },
      {
        type: 'text',
        text: { body: 'oi' },
        timestamp: String(Math.floor((Date.now() - 25 * 3600_000) / 1000)),
      },
    ),
  );
  expect(res.status).toBe(200);
  const customer = `+${waId}`;
  const chat = await t.db
    .selectFrom('sessions')
    .select('id')
    .where('send_phone', '=', seat.phones[0]!)
    .where('receiver_phone', '=', customer)
    .executeTakeFirstOrThrow();
  return { waId, customer, sessionId: chat.id };
}

let n = 0;
const clientId = () => `tpl-${process.pid}-${++n}`;
const orderUpdate = (overrides: Record<string, unknown> = {}) => ({
  name: 'order_update',
  language: 'en_US',
  header: ['A-1027'],
  body: ['Ana', 'A-1027'],
  buttons: [{ index: 0, text: 'A-1027' }],
  ...overrides,
});

async function messagesOf(sessionId: number) {
  return t.db.selectFrom('messages').selectAll().where('session_id', '=', sessionId).execute();
}

describe('/v1/seat/wa/sendTemplate', () => {
  it('sends the template with every variable to the Graph API and stores what the customer reads', async () => {
    const { waId, customer, sessionId } = await customerPastWindow();
    const groups = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: seat.groups.ungrouped, user_time_type: 2, page_size: 100 },
      seat.token,
    );
    const chat = groups.data.account_list.find((c) => c.session_id === sessionId);
    expect(chat?.can_reply).toBe(false);
    const listed = await t.call(
      '/v1/seat/wa/templates',
      { send_phone: seat.phones[0]! },
      seat.token,
    );
    expect(listed.data!.templates.find((x) => x.name === 'order_update')).toEqual({
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      header: { text: 'Order {{1}}', variables: 1 },
      body: 'Hello {{1}}, your order {{2}} is ready.',
      variables: 2,
      footer: 'Lisbon Tiles',
      buttons: [
        { type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}', variables: 1 },
        { type: 'QUICK_REPLY', text: 'Stop', url: null, variables: 0 },
      ],
    });

    const res = await t.call(
      '/v1/seat/wa/sendTemplate',
      { session_id: sessionId, client_msg_id: clientId(), template: orderUpdate() },
      seat.token,
    );
    expect(res.code, res.raw).toBe('000000');
    expect(res.data).toMatchObject({
      direction: 'out',
      type: 'text',
      fail_reason: null,
      content:
        'Order A-1027\n\nHello Ana, your order A-1027 is ready.\n\nLisbon Tiles\n\n' +
        '[Track: https://shop.example/t/A-1027]\n[Stop]',
    });
    const sent = await waitFor(async () => {
      const [s] = graph.sentTo(number.phoneNumberId, waId);
      expect(s).toBeDefined();
      return s!;
    });
    expect(sent.type).toBe('template');
    expect(sent.body.template).toEqual({
      name: 'order_update',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: [{ type: 'text', text: 'A-1027' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ana' },
            { type: 'text', text: 'A-1027' },
          ],
        },
        {
          type: 'button',
          sub_type: 'url',
          index: '0',
          parameters: [{ type: 'text', text: 'A-1027' }],
        },
      ],
    });
    await waitFor(async () => {
      const m = (await chatRecord(t, seat, customer)).find((x) => x.msg_id === res.data.msg_id);
      expect(m?.status).toBe('sent');
    });
  });

  it('refuses an unknown template or language, and a wrong count of values, storing nothing', async () => {
    const { waId, sessionId } = await customerPastWindow();
    const before = (await messagesOf(sessionId)).length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [orderUpdate({ name: 'no_such_template' }), 'template_unknown'],
      [orderUpdate({ language: 'pt_BR' }), 'template_unknown'],
      [orderUpdate({ body: ['Ana'] }), 'template_parameters'],
      [orderUpdate({ header: [] }), 'template_parameters'],
      [orderUpdate({ buttons: [] }), 'template_parameters'],
      [orderUpdate({ buttons: [{ index: 1, text: 'x' }] }), 'template_parameters'],
      [{ name: 'hello_world', language: 'en_US', body: ['extra'] }, 'template_parameters'],
      // Longer than a message's text once filled.
      [
        orderUpdate({
          header: ['h'.repeat(1024)],
          body: ['a'.repeat(1024), 'b'.repeat(1024)],
          buttons: [{ index: 0, text: 'c'.repeat(1024) }],
        }),
        'template_parameters',
      ],
    ];
    for (const [template, reason] of cases) {
      const res = await t.call(
        '/v1/seat/wa/sendTemplate',
        { session_id: sessionId, client_msg_id: clientId(), template },
        seat.token,
      );
      expect(res.code, JSON.stringify(template)).toBe('100001');
      expect(res.data).toMatchObject({ reason });
    }
    // An empty value is refused by the schema, naming it.
    const empty = await t.call(
      '/v1/seat/wa/sendTemplate',
      {
        session_id: sessionId,
        client_msg_id: clientId(),
        template: orderUpdate({ body: ['Ana', ' '] }),
      },
      seat.token,
    );
    expect(empty.code).toBe('100001');
    expect((await messagesOf(sessionId)).length).toBe(before);
    const outbox = await sql<{ n: number }>`
      select count(*) as n from outbox o join messages m on m.id = o.msg_id
      where m.session_id = ${sessionId}`.execute(t.db);
    expect(Number(outbox.rows[0]!.n)).toBe(0);
    expect(graph.sentTo(number.phoneNumberId, waId)).toEqual([]);
  });

  it("is for the seat's own WhatsApp chats: another seat's is not found, another channel's refused", async () => {
    const { sessionId } = await customerPastWindow();
    const other = await createSeat(t, 'tpl-other-seat');
    const foreign = await t.call(
      '/v1/seat/wa/sendTemplate',
      { session_id: sessionId, client_msg_id: clientId(), template: orderUpdate() },
      other.token,
    );
    expect(foreign.code).toBe('400001');
    await t.services.messages.receive({
      sendPhone: other.phones[0]!,
      receiverPhone: nextPhone('+4477'),
      content: 'hi',
    });
    const platformChat = await t.db
      .selectFrom('sessions')
      .select('id')
      .where('seat_id', '=', other.seatId)
      .executeTakeFirstOrThrow();
    const platform = await t.call(
      '/v1/seat/wa/sendTemplate',
      { session_id: platformChat.id, client_msg_id: clientId(), template: orderUpdate() },
      other.token,
    );
    expect(platform.code).toBe('100001');
    expect(platform.data).toMatchObject({ reason: 'not_whatsapp' });
    expect((await messagesOf(sessionId)).filter((m) => m.direction === 'out')).toEqual([]);
  });

  it('the Graph API refusing the template list (an expired token) answers 500005 and stores nothing', async () => {
    const other = await createSeat(t, 'tpl-expired-seat');
    const n2 = graph.addNumber();
    graph.addTemplate(n2.wabaId, HELLO);
    await bindNumber(t, await createAdmin(t, 'tpl-admin-2'), other, n2);
    const waId = nextWaId();
    await deliverWebhook(
      t,
      n2,
      graph.inbound(n2, { wa_id: waId, name: 'Eva' }, { type: 'text', text: { body: 'oi' } }),
    );
    const chat = await t.db
      .selectFrom('sessions')
      .select('id')
      .where('seat_id', '=', other.seatId)
      .executeTakeFirstOrThrow();
    graph.revokeToken(n2.token);
    const res = await t.call(
      '/v1/seat/wa/sendTemplate',
      {
        session_id: chat.id,
        client_msg_id: clientId(),
        template: { name: 'hello_world', language: 'en_US' },
      },
      other.token,
    );
    expect(res.code, res.raw).toBe('500005');
    expect(res.data).toMatchObject({ reason: 'whatsapp_unavailable' });
    expect(res.raw).not.toContain(n2.token);
    expect((await messagesOf(chat.id)).filter((m) => m.direction === 'out')).toEqual([]);
    // The refused token shows on the account, as when a send meets it.
    const state = await t.db
      .selectFrom('whatsapp_numbers')
      .select(['state', 'last_error'])
      .where('phone_number_id', '=', n2.phoneNumberId)
      .executeTakeFirstOrThrow();
    expect(state.state).toBe('token_invalid');
    expect(state.last_error).toContain('190');
  });

  it('lists every page of a business with more templates than one page holds', async () => {
    const other = await createSeat(t, 'tpl-many-seat');
    const n3 = graph.addNumber();
    const names = Array.from({ length: 130 }, (_, i) => `notice_${String(i).padStart(3, '0')}`);
    for (const name of names) graph.addTemplate(n3.wabaId, { ...HELLO, name });
    await bindNumber(t, await createAdmin(t, 'tpl-admin-3'), other, n3);
    const res = await t.call(
      '/v1/seat/wa/templates',
      { send_phone: other.phones[0]! },
      other.token,
    );
    expect(res.code, res.raw).toBe('000000');
    expect(res.data!.templates.map((x) => x.name)).toEqual(names);
  });

  it('answers a replayed client_msg_id with the stored message, sent once', async () => {
    const { waId, sessionId } = await customerPastWindow();
    const id = clientId();
    const body = { session_id: sessionId, client_msg_id: id, template: orderUpdate() };
    const first = await t.call('/v1/seat/wa/sendTemplate', body, seat.token);
    expect(first.code, first.raw).toBe('000000');
    await waitFor(async () => expect(graph.sentTo(number.phoneNumberId, waId)).toHaveLength(1));
    const again = await t.call('/v1/seat/wa/sendTemplate', body, seat.token);
    expect(again.code, again.raw).toBe('000000');
    expect(again.data.msg_id).toBe(first.data.msg_id);
    expect((await messagesOf(sessionId)).filter((m) => m.direction === 'out')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(graph.sentTo(number.phoneNumberId, waId)).toHaveLength(1);
  });
});

describe('a send refused for the window', () => {
  it('131047 marks the message failed with fail_reason whatsapp_window, pushed with the failure', async () => {
    const { customer, sessionId } = await customerPastWindow();
    graph.failNextSends(number.phoneNumberId, GRAPH_ERRORS.reEngagement);
    const res = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'are you there?',
        client_msg_id: clientId(),
      },
      seat.token,
    );
    expect(res.code, res.raw).toBe('000000');
    const msgId = res.data.msg_id;
    await waitFor(async () => {
      const m = (await chatRecord(t, seat, customer)).find((x) => x.msg_id === msgId);
      expect(m).toMatchObject({ status: 'failed', fail_reason: 'whatsapp_window' });
    });
    // The pushed status, as the seat's consoles get it (a commit's events may be one list).
    const events = await sql<{ data: string }>`
      select data from events where seat_id = ${seat.seatId}`.execute(t.db);
    const found: unknown[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (o.msg_id === msgId && o.status === 'failed' && !('content' in o)) found.push(o);
        Object.values(o).forEach(walk);
      }
    };
    for (const e of events.rows) walk(typeof e.data === 'string' ? JSON.parse(e.data) : e.data);
    expect(found).toContainEqual({
      session_id: sessionId,
      msg_id: msgId,
      status: 'failed',
      fail_reason: 'whatsapp_window',
    });
  });

  it('another permanent refusal fails the message without a reason', async () => {
    const { customer } = await customerPastWindow();
    graph.failNextSends(number.phoneNumberId, GRAPH_ERRORS.undeliverable);
    const res = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'hello?',
        client_msg_id: clientId(),
      },
      seat.token,
    );
    await waitFor(async () => {
      const m = (await chatRecord(t, seat, customer)).find((x) => x.msg_id === res.data.msg_id);
      expect(m).toMatchObject({ status: 'failed', fail_reason: null });
    });
  });

  it('a failed status webhook with 131047 shows the same reason', async () => {
    const { waId, customer, sessionId } = await customerPastWindow();
    const res = await t.call(
      '/v1/seat/wa/sendTemplate',
      { session_id: sessionId, client_msg_id: clientId(), template: orderUpdate() },
      seat.token,
    );
    const sent = await waitFor(async () => {
      const [s] = graph.sentTo(number.phoneNumberId, waId);
      expect(s).toBeDefined();
      return s!;
    });
    await waitFor(async () => {
      const m = (await chatRecord(t, seat, customer)).find((x) => x.msg_id === res.data.msg_id);
      expect(m?.status).toBe('sent');
    });
    await deliverWebhook(
      t,
      number,
      graph.status(number, sent.wamid, waId, 'failed', GRAPH_ERRORS.reEngagement),
    );
    const m = (await chatRecord(t, seat, customer)).find((x) => x.msg_id === res.data.msg_id);
    expect(m).toMatchObject({ status: 'failed', fail_reason: 'whatsapp_window' });
  });
});

describe('addSession on a WhatsApp account', () => {
  it("lists the account's approved templates; null for another channel, 400003 for another seat's", async () => {
    const res = await t.call('/v1/seat/wa/templates', { send_phone: seat.phones[0]! }, seat.token);
    expect(res.code, res.raw).toBe('000000');
    // promo_image's IMAGE header is not Parley's to fill: it is not offered.
    expect(res.data!.templates.map((x) => x.name)).toEqual(['order_update', 'hello_world']);
    const other = await createSeat(t, 'tpl-templates-seat');
    const platform = await t.call(
      '/v1/seat/wa/templates',
      { send_phone: other.phones[0]! },
      other.token,
    );
    expect(platform.code, platform.raw).toBe('000000');
    expect(platform.data).toBeNull();
    const foreign = await t.call(
      '/v1/seat/wa/templates',
      { send_phone: seat.phones[0]! },
      other.token,
    );
    expect(foreign.code).toBe('400003');
  });

  it('sends its greeting as a template to the new customer', async () => {
    const waId = nextWaId();
    const res = await t.call(
      '/v1/seat/chat/addSession',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: `+${waId}`,
        template: { name: 'hello_world', language: 'en_US' },
        client_msg_id: clientId(),
      },
      seat.token,
    );
    expect(res.code, res.raw).toBe('000000');
    expect(res.data.message.content).toBe('Hello, this is Lisbon Tiles. Reply to chat with us.');
    expect(res.data.session.last_message?.preview).toBe(
      'Hello, this is Lisbon Tiles. Reply to chat with us.',
    );
    // The customer has not written: only a template goes until they answer.
    expect(res.data.session).toMatchObject({ can_reply: false, reply_until: null });
    const sent = await waitFor(async () => {
      const [s] = graph.sentTo(number.phoneNumberId, waId);
      expect(s).toBeDefined();
      return s!;
    });
    expect(sent.body.template).toEqual({
      name: 'hello_world',
      language: { code: 'en_US' },
      components: [],
    });
  });

  it('refuses a plain greeting (a template is needed) or a template that does not fit, storing nothing', async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ greeting: 'Hello!' }, 'whatsapp_template_required'],
      [{ template: { name: 'hello_world', language: 'pt_BR' } }, 'template_unknown'],
      [
        { template: { name: 'order_update', language: 'en_US', body: ['Ana'] } },
        'template_parameters',
      ],
    ];
    for (const [greeting, reason] of refusals) {
      const waId = nextWaId();
      const res = await t.call(
        '/v1/seat/chat/addSession',
        {
          send_phone: seat.phones[0]!,
          receiver_phone: `+${waId}`,
          client_msg_id: clientId(),
          ...greeting,
        },
        seat.token,
      );
      expect(res.code, res.raw).toBe('100001');
      expect(res.data).toMatchObject({ reason });
      const chat = await t.db
        .selectFrom('sessions')
        .select('id')
        .where('receiver_phone', '=', `+${waId}`)
        .executeTakeFirst();
      expect(chat).toBeUndefined();
      expect(graph.sentTo(number.phoneNumberId, waId)).toEqual([]);
    }
  });

  it('a template for an account of another channel is refused', async () => {
    const other = await createSeat(t, 'tpl-platform-seat');
    const res = await t.call(
      '/v1/seat/chat/addSession',
      {
        send_phone: other.phones[0]!,
        receiver_phone: nextPhone('+4478'),
        template: { name: 'hello_world', language: 'en_US' },
        client_msg_id: clientId(),
      },
      other.token,
    );
    expect(res.code).toBe('100001');
    expect(res.data).toMatchObject({ reason: 'not_whatsapp' });
  });
});

describe('the local Graph API checks template sends as Meta does', () => {
  const post = (template: Record<string, unknown>) =>
    fetch(`${graph.url}/v21.0/${number.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${number.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        to: nextWaId(),
        type: 'template',
        template,
      }),
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { error?: { code: number } },
    }));

  it('answers 132001 for an unknown template or language and 132000 for a wrong count', async () => {
    expect((await post({ name: 'nope', language: { code: 'en_US' } })).body.error?.code).toBe(
      132001,
    );
    expect((await post({ name: 'hello_world', language: { code: 'de' } })).body.error?.code).toBe(
      132001,
    );
    const wrong = await post({
      name: 'order_update',
      language: { code: 'en_US' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }],
    });
    expect(wrong.body.error?.code).toBe(132000);
    const right = await post({ name: 'hello_world', language: { code: 'en_US' } });
    expect(right.status).toBe(200);
  });
});
