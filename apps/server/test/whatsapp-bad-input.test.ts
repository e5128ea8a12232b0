import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from './admin-helpers.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import type { TestApp } from './helper.js';
import { valueOf } from './prometheus.js';
import { WhatsAppGraphServer, type GraphNumber } from './whatsapp-graph-api-server.js';
import { bindNumber, chatRecord, deliverWebhook, whatsappApp } from './whatsapp-helpers.js';

/**
 * Issue 33's WhatsApp cases: signed webhooks whose parts do not fit Meta's reference (Cloud API
 * v21.0, test/whatsapp-graph-api-server.ts). Each answers 200 once every message has a fate,
 * never a 5xx; a bad message is refused alone (one log line without a stack, a count by reason)
 * and the others of its delivery are stored; a NUL is stripped, an over-long text cut.
 */
const TOKEN = 'inbound-metrics-token-0123456789';
const graph = new WhatsAppGraphServer();
let t: TestApp;
let lines: string[];
let seat: SeatFixture;
let number: GraphNumber;
let waN = 0;
const nextWaId = () =>
  `49152${String(process.pid % 1000).padStart(3, '0')}${String(++waN).padStart(5, '0')}`;

beforeAll(async () => {
  await graph.start();
  ({ t, lines } = await whatsappApp(graph, {
    ops: { metricsToken: TOKEN, shutdownTimeoutMs: 10_000, shutdownGraceMs: 0 },
  }));
  const adminToken = await createAdmin(t, 'wa-bad-admin');
  seat = await createSeat(t, 'wa-bad-seat');
  number = graph.addNumber({ verifiedName: 'Porto Tiles', qualityRating: 'GREEN' });
  await bindNumber(t, adminToken, seat, number);
});
afterAll(async () => {
  await t?.close();
  await graph.stop();
});

let wamidN = 0;
const wamid = () => `wamid.bad-input-${process.pid}-${++wamidN}`;
const now = () => String(Math.floor(Date.now() / 1000));
const text = (from: string, body: unknown, id = wamid()) => ({
  from,
  id,
  timestamp: now(),
  type: 'text',
  text: { body },
});

async function deliver(value: Record<string, unknown>) {
  const res = await deliverWebhook(t, number, graph.envelope(number, value));
  expect(res.status, res.body).toBe(200);
}

const refusals = () => lines.filter((l) => l.includes('inbound message refused'));

async function metric(name: string, labels: Record<string, string>) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return valueOf(res.body, name, labels);
}

describe('a signed webhook that does not fit Meta’s shape', () => {
  it('[text, text with NUL, text] stores all three (the NUL stripped), a redelivery none again', async () => {
    const waId = nextWaId();
    const delivery = {
      contacts: [{ wa_id: waId, profile: { name: 'Ana' } }],
      messages: [text(waId, 'first'), text(waId, 'sec\u0000ond'), text(waId, 'third')],
    };
    await deliver(delivery);
    await deliver(delivery);
    const list = await chatRecord(t, seat, `+${waId}`);
    expect(list.map((m) => m.content)).toEqual(['first', 'second', 'third']);
    expect(
      await metric('parley_inbound_messages_cleaned_total', {
        channel: 'whatsapp',
        reason: 'nul_stripped',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('statuses: 5 and an object as a status id are refused; the messages beside them stored', async () => {
    const waId = nextWaId();
    const before = refusals().length;
    await deliver({ messages: [text(waId, 'beside statuses 5')], statuses: 5 });
    await deliver({
      messages: [text(waId, 'beside a bad status')],
      statuses: [{ id: { not: 'a wamid' }, status: 'read', recipient_id: waId }],
    });
    const list = await chatRecord(t, seat, `+${waId}`);
    expect(list.map((m) => m.content)).toEqual(['beside statuses 5', 'beside a bad status']);
    const said = refusals().slice(before);
    expect(said).toHaveLength(2);
    for (const line of said) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      expect(entry).toMatchObject({ channel: 'whatsapp', reason: 'bad_shape' });
      expect(entry.err).toBeUndefined();
      expect(line).not.toContain('stack');
    }
  });

  it('an object as a text body and a 5,000-character wamid are refused alone, counted by reason', async () => {
    const waId = nextWaId();
    const counted = await metric('parley_inbound_messages_refused_total', {
      channel: 'whatsapp',
      reason: 'bad_shape',
    });
    await deliver({
      messages: [
        text(waId, 'before'),
        text(waId, { body: 'an object' }),
        text(waId, 'with a long id', `wamid.${'x'.repeat(5000)}`),
        text(waId, 'after'),
      ],
    });
    const list = await chatRecord(t, seat, `+${waId}`);
    expect(list.map((m) => m.content)).toEqual(['before', 'after']);
    expect(
      await metric('parley_inbound_messages_refused_total', {
        channel: 'whatsapp',
        reason: 'bad_shape',
      }),
    ).toBe(counted + 2);
    // The 5,000-character id is said short in the log line.
    expect(refusals().at(-1)!.length).toBeLessThan(1000);
  });

  it('a 10,000-character profile name is cut to 128; a 200,000-character text cut to 4,096', async () => {
    const waId = nextWaId();
    await deliver({
      contacts: [{ wa_id: waId, profile: { name: 'N'.repeat(10_000) } }],
      messages: [text(waId, 'z'.repeat(200_000).slice(0, 100_000))],
    });
    const list = await chatRecord(t, seat, `+${waId}`);
    expect(list.map((m) => m.content.length)).toEqual([4096]);
    const chat = await t.db
      .selectFrom('sessions')
      .select('customer_name')
      .where('receiver_phone', '=', `+${waId}`)
      .executeTakeFirstOrThrow();
    expect(chat.customer_name).toBe('N'.repeat(128));
  });

  it('an unknown type is refused with its reason; a delivery that is not an object list answers 200', async () => {
    const waId = nextWaId();
    await deliver({
      messages: [
        { from: waId, id: wamid(), timestamp: now(), type: 'system', system: { body: 'x' } },
        text(waId, 'kept'),
      ],
    });
    expect(
      await metric('parley_inbound_messages_refused_total', {
        channel: 'whatsapp',
        reason: 'unknown_type',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect((await chatRecord(t, seat, `+${waId}`)).map((m) => m.content)).toEqual(['kept']);
    for (const payload of [
      { object: 'whatsapp_business_account', entry: 5 },
      {
        object: 'whatsapp_business_account',
        entry: [{ changes: [5, null, { field: 'messages', value: 7 }] }],
      },
      [1, 2],
    ]) {
      const res = await deliverWebhook(t, number, payload);
      expect(res.status, res.body).toBeLessThan(500);
    }
  });
});
