import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { META_MEDIA_HOSTS } from '../src/channels/whatsapp/graph-api.js';
import { createAdmin } from './admin-helpers.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import type { TestApp } from './helper.js';
import { listenOnLoopback } from './loopback.js';
import { corpus, fetchMedia, storedFiles } from './media-helpers.js';
import { WhatsAppGraphServer, type GraphNumber } from './whatsapp-graph-api-server.js';
import { bindNumber, chatRecord, deliverWebhook, whatsappApp } from './whatsapp-helpers.js';

/**
 * Issue 34: a media URL comes from GET /{media-id}, so a spoofed or intercepted lookup names
 * it. Against the local Graph server (Cloud API v21.0, test/whatsapp-graph-api-server.ts) made
 * hostile, and local listeners that record every request's headers: a URL naming another host,
 * a loopback service, a private or link-local address, a redirect into one, and a media id that
 * is a path or a query are each refused with a logged reason; the number's token reaches none
 * of them, and nothing is stored.
 */

/** A local service that records what reached it (it must stay empty). */
class Recorder {
  readonly seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  private server: Server | null = null;
  url = '';
  async start() {
    this.server = createServer((req, res) => {
      this.seen.push({ path: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(corpus('photo.jpg'));
    });
    this.url = await listenOnLoopback(this.server);
    return this;
  }
  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

const graph = new WhatsAppGraphServer();
const inside = new Recorder();
/** Another origin the settings allow, to show the token stays behind on a redirect to it. */
const cdn = new Recorder();
let t: TestApp;
let lines: string[];
let seat: SeatFixture;
let number: GraphNumber;
let waN = 0;
const nextWaId = () =>
  `49152${String(process.pid % 1000).padStart(3, '0')}${String(++waN).padStart(5, '0')}`;

beforeAll(async () => {
  await graph.start();
  await inside.start();
  await cdn.start();
  ({ t, lines } = await whatsappApp(graph, {
    whatsapp: {
      graphUrl: graph.url,
      mediaOrigins: [graph.url, cdn.url],
      // Names and addresses that pass the host list, so the address check is what refuses them.
      mediaHosts: [
        ...META_MEDIA_HOSTS,
        'localhost',
        '10.11.12.13',
        '169.254.169.254',
        '::ffff:7f00:1',
      ],
    },
  }));
  const adminToken = await createAdmin(t, 'wa-ssrf-admin');
  seat = await createSeat(t, 'wa-ssrf');
  number = graph.addNumber();
  await bindNumber(t, adminToken, seat, number);
});
afterAll(async () => {
  await t?.close();
  await graph.stop();
  await inside.stop();
  await cdn.stop();
});

async function mediaRows(): Promise<number> {
  const r = await sql<{ n: number }>`select count(*) as n from media`.execute(t.db);
  return Number(r.rows[0]!.n);
}

/** A customer sends an image whose media id is `mediaId`; answers what the operator sees. */
async function imageArrives(mediaId: string) {
  const customer = { wa_id: nextWaId(), name: 'Eve' };
  const res = await deliverWebhook(
    t,
    number,
    graph.inbound(number, customer, {
      type: 'image',
      image: { id: mediaId, mime_type: 'image/jpeg' },
    }),
  );
  expect(res.status, res.body).toBe(200);
  const [m] = await chatRecord(t, seat, `+${customer.wa_id}`);
  return m!;
}

const logged = (msg: string) =>
  lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg);

describe('a hostile media lookup', () => {
  const cases: Array<{
    name: string;
    hostile: () => { lookupUrl?: string; redirectTo?: string };
    reason: RegExp;
  }> = [
    {
      name: 'a URL naming another host (plain http)',
      hostile: () => ({ lookupUrl: `${inside.url}/steal` }),
      reason: /http: is not https/,
    },
    {
      name: 'a URL naming a host off the list',
      hostile: () => ({ lookupUrl: 'https://graph.example.net/steal' }),
      reason: /host graph\.example\.net is not allowed/,
    },
    {
      name: 'an allowed name that resolves to loopback',
      hostile: () => ({ lookupUrl: 'https://localhost/steal' }),
      reason: /localhost resolves to a loopback address/,
    },
    {
      name: 'a private address',
      hostile: () => ({ lookupUrl: 'https://10.11.12.13/steal' }),
      reason: /10\.11\.12\.13 is a private address/,
    },
    {
      name: 'a link-local address (cloud metadata)',
      hostile: () => ({ lookupUrl: 'https://169.254.169.254/latest/meta-data' }),
      reason: /169\.254\.169\.254 is a linkLocal address/,
    },
    {
      name: 'loopback written as an IPv4-mapped IPv6 address',
      hostile: () => ({ lookupUrl: 'https://[::ffff:127.0.0.1]/steal' }),
      reason: /is a loopback address/,
    },
    {
      name: 'a port other than 443',
      hostile: () => ({ lookupUrl: 'https://lookaside.fbsbx.com:8443/steal' }),
      reason: /port 8443 is not 443/,
    },
    {
      name: 'a redirect into a loopback service',
      hostile: () => ({ redirectTo: `${inside.url}/steal` }),
      reason: /http: is not https/,
    },
    {
      name: 'a redirect to an allowed name that resolves to loopback',
      hostile: () => ({ redirectTo: 'https://localhost/steal' }),
      reason: /localhost resolves to a loopback address/,
    },
    {
      name: 'a redirect to a private address',
      hostile: () => ({ redirectTo: 'https://10.11.12.13/steal' }),
      reason: /10\.11\.12\.13 is a private address/,
    },
  ];

  it.each(cases)(
    '$name: refused with its reason, no token sent, nothing stored',
    async ({ hostile, reason }) => {
      const id = graph.addCustomerMedia(corpus('photo.jpg'), 'image/jpeg', 'photo.jpg', hostile());
      const rowsBefore = await mediaRows();
      const filesBefore = storedFiles(t.config.mediaDir).length;
      const logBefore = logged('whatsapp media URL refused').length;
      const m = await imageArrives(id);
      // The message still reaches the operator, as its kind in brackets, with no file.
      expect(m).toMatchObject({ type: 'text', content: '[image]', media: null });
      const refusals = logged('whatsapp media URL refused').slice(logBefore);
      expect(refusals).toHaveLength(1);
      expect(refusals[0]!.reason).toMatch(reason);
      expect(refusals[0]!.media).toBe(id);
      expect(inside.seen).toEqual([]);
      expect(await mediaRows()).toBe(rowsBefore);
      expect(storedFiles(t.config.mediaDir)).toHaveLength(filesBefore);
      // Nothing was marked on the number: a refused URL is not a refused token.
      const state = await sql<{
        state: string;
      }>`select state from whatsapp_numbers where phone_number_id = ${number.phoneNumberId}`.execute(
        t.db,
      );
      expect(state.rows[0]!.state).toBe('ok');
    },
  );

  it('a redirect to another allowed origin is followed without the token', async () => {
    const id = graph.addCustomerMedia(corpus('photo.jpg'), 'image/jpeg', 'photo.jpg', {
      redirectTo: `${cdn.url}/media/1`,
    });
    const m = await imageArrives(id);
    expect(m.type).toBe('image');
    const got = await fetchMedia(t, m.media!.url);
    expect(Buffer.compare(got.rawPayload, corpus('photo.jpg'))).toBe(0);
    expect(cdn.seen).toHaveLength(1);
    expect(cdn.seen[0]!.headers.authorization).toBeUndefined();
    // The Graph server (the token's own origin) got it on the lookup and the first hop.
    expect(graph.requests.filter((r) => r.path === `/download/${id}`)).toEqual([
      { method: 'GET', path: `/download/${id}`, auth: `Bearer ${number.token}` },
    ]);
  });

  it.each(['../../123456', '123456?fields=id', '123456/x', '%2e%2e', '12 34', ''.padEnd(40, '1')])(
    'a media id %j that is not a Graph id is never asked for',
    async (hostileId) => {
      const before = graph.requests.length;
      const logBefore = logged('whatsapp media id refused: not a Graph id').length;
      const rowsBefore = await mediaRows();
      const m = await imageArrives(hostileId);
      expect(m).toMatchObject({ type: 'text', content: '[image]', media: null });
      expect(logged('whatsapp media id refused: not a Graph id').length).toBe(logBefore + 1);
      // Graph was asked for no media (opening the chat sends its read mark, a POST).
      expect(graph.requests.slice(before).filter((r) => r.method === 'GET')).toEqual([]);
      expect(await mediaRows()).toBe(rowsBefore);
    },
  );
});
