/**
 * A local HTTP server that follows Meta's WhatsApp Business Platform Cloud API reference at
 * Graph API version v21.0 (https://developers.facebook.com/docs/whatsapp/cloud-api/reference,
 * "Phone Numbers", "Messages", "Media", "Message Templates", "Webhooks" and "Error Codes"), for
 * the WhatsApp channel's tests (server suite and browser suite):
 *
 * - `GET /v21.0/{phone-number-id}`: `display_phone_number`, `verified_name`, `quality_rating`, `id`;
 * - `POST /v21.0/{phone-number-id}/messages`: text, image/audio/video/document/sticker by media
 *   `id` (or `link`), template (name, `language.code`, `components` with the header's, body's
 *   and URL buttons' parameters, checked against the template), and `status: "read"`; answers `{ messaging_product, contacts,
 *   messages: [{ id: "wamid..." }] }` (or `{ success: true }` for a read);
 * - `POST /v21.0/{phone-number-id}/media`: multipart (`messaging_product`, `type`, `file`) → `{ id }`;
 * - `GET /v21.0/{media-id}`: `{ url, mime_type, sha256, file_size, id, messaging_product }`, and
 *   the `url` itself, which like Meta's lookaside URL needs the same Bearer token;
 * - `GET /v21.0/{waba-id}/message_templates`: `{ data: [...], paging }`;
 * - errors as Graph answers them: `{ error: { message, type, code, error_subcode?, fbtrace_id } }`
 *   (190 expired/revoked token, 100 invalid parameter, 131026 undeliverable, 131047 re-engagement
 *   (outside the 24-hour window), 4 / 80007 rate limits, 130429 throughput reached, 131056 pair
 *   rate limit, 132000 template parameters that do not match, 132001 no such template in that
 *   language);
 * - a number's throughput, as Meta enforces it ("Throughput", Cloud API overview): at most
 *   `throughputPerSecond` messages (80 by default) in any second per business number; one more
 *   is refused with 130429 (the read marks are not messages and do not count);
 * - webhooks (`POST` to the app's callback URL) signed as Meta signs them: `X-Hub-Signature-256:
 *   sha256=<hex HMAC-SHA256 of the raw body with the app secret>`; and the callback URL's
 *   verification request (`GET ?hub.mode=subscribe&hub.verify_token=...&hub.challenge=...`).
 *
 * Every call needs `Authorization: Bearer <token>` of a known, unrevoked token.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback.js';

export const GRAPH_VERSION = 'v21.0';

export interface GraphNumber {
  phoneNumberId: string;
  wabaId: string;
  token: string;
  appSecret: string;
  displayPhoneNumber: string;
  verifiedName: string;
  qualityRating: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';
}

/**
 * A message template as `GET /{waba-id}/message_templates` lists it: a HEADER (format TEXT,
 * IMAGE, ...), a BODY and a FOOTER with their `text`, and BUTTONS (URL ones may end in {{1}}).
 */
export interface GraphTemplate {
  name: string;
  language: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED';
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  components: Array<{
    type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS';
    format?: 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT' | 'LOCATION';
    text?: string;
    buttons?: Array<{
      type: 'URL' | 'QUICK_REPLY' | 'PHONE_NUMBER';
      text: string;
      url?: string;
      phone_number?: string;
    }>;
  }>;
}

/** A message the business sent (POST /messages), with the wamid it was given. */
export interface GraphSent {
  phoneNumberId: string;
  wamid: string;
  to: string;
  type: string;
  body: Record<string, unknown>;
  /** When this server accepted it (epoch ms). */
  at: number;
}

export interface GraphMedia {
  id: string;
  bytes: Buffer;
  mime: string;
  fileName: string;
  /** The number that uploaded it (null: a customer's media, reachable by every token). */
  owner: string | null;
  /**
   * A hostile lookup (a spoofed or intercepted Graph endpoint, for the SSRF tests): GET
   * /{media-id} answers this `url` instead of its own download URL.
   */
  lookupUrl?: string;
  /** The download URL answers `302 Location: redirectTo` instead of the bytes. */
  redirectTo?: string;
}

export interface GraphFailure {
  /** HTTP status of the answer. */
  status: number;
  code: number;
  subcode?: number;
  message: string;
  type?: string;
  details?: string;
}

/** The reference's error catalogue, as the tests need it. */
export const GRAPH_ERRORS = {
  expiredToken: {
    status: 401,
    code: 190,
    subcode: 463,
    type: 'OAuthException',
    message: 'Error validating access token: Session has expired.',
  },
  invalidParameter: {
    status: 400,
    code: 100,
    type: 'OAuthException',
    message: '(#100) Invalid parameter',
  },
  undeliverable: {
    status: 400,
    code: 131026,
    message: 'Message undeliverable',
    details: 'Message could not be delivered to the recipient.',
  },
  reEngagement: {
    status: 400,
    code: 131047,
    message: 'Re-engagement message',
    details:
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  rateLimit: {
    status: 400,
    code: 4,
    type: 'OAuthException',
    message: '(#4) Application request limit reached',
  },
  accountRateLimit: {
    status: 400,
    code: 80007,
    type: 'OAuthException',
    message: '(#80007) Rate limit issues',
  },
  throughput: {
    status: 400,
    code: 130429,
    message: 'Rate limit hit',
    details: 'Cloud API message throughput has been reached.',
  },
  pairRateLimit: {
    status: 400,
    code: 131056,
    message: '(Business Account, Consumer Account) pair rate limit hit',
    details:
      'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
  },
  templateParameters: {
    status: 400,
    code: 132000,
    message: '(#132000) Number of parameters does not match the expected number of params',
    details:
      'body: number of localizable_params (1) does not match the expected number of params (2)',
  },
  templateMissing: {
    status: 404,
    code: 132001,
    message: '(#132001) Template name does not exist in the translation',
    details: 'template name (x) does not exist in en_US',
  },
} satisfies Record<string, GraphFailure>;

/** The distinct {{n}} of a template text (Meta numbers them 1..n). */
function placeholders(text: string | undefined): number {
  return new Set(text?.match(/\{\{\d+\}\}/g) ?? []).size;
}

export class WhatsAppGraphServer {
  private server: Server | null = null;
  readonly numbers = new Map<string, GraphNumber>();
  private readonly revoked = new Set<string>();
  private readonly templates = new Map<string, GraphTemplate[]>();
  readonly media = new Map<string, GraphMedia>();
  /** Every message the business sent, in order. */
  readonly sent: GraphSent[] = [];
  /** The wamids marked read (`status: "read"`). */
  readonly readMarks: string[] = [];
  /** Every request seen: method and path (the tests check what was asked). */
  readonly requests: Array<{ method: string; path: string; auth: string | undefined }> = [];
  private readonly failures = new Map<string, GraphFailure[]>();
  /** Messages per second per business number (Meta's default: 80). */
  throughputPerSecond = 80;
  /** The messages a number sent within the last second (accepted ones: their times). */
  private readonly lastSecond = new Map<string, number[]>();
  /** Every send refused for the number's throughput (130429), with its time. */
  readonly throughputRefusals: Array<{ phoneNumberId: string; at: number }> = [];
  private nextId = 1;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.url = await listenOnLoopback(this.server);
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A business phone number on a WhatsApp Business Account, with its token and app secret. */
  addNumber(partial: Partial<GraphNumber> = {}): GraphNumber {
    const n = this.nextId++;
    const number: GraphNumber = {
      phoneNumberId: `1${String(100_000_000_000_00 + n)}`,
      wabaId: `2${String(100_000_000_000_00 + n)}`,
      token: `EAAG${randomBytes(24).toString('hex')}`,
      appSecret: randomBytes(16).toString('hex'),
      displayPhoneNumber: `+1 555-01${String(n).padStart(2, '0')}`,
      verifiedName: `Shop ${n}`,
      qualityRating: 'GREEN',
      ...partial,
    };
    this.numbers.set(number.phoneNumberId, number);
    return number;
  }

  /** The token stops working (expired or revoked): every call answers error 190. */
  revokeToken(token: string) {
    this.revoked.add(token);
  }

  addTemplate(wabaId: string, template: GraphTemplate) {
    const list = this.templates.get(wabaId) ?? [];
    list.push(template);
    this.templates.set(wabaId, list);
  }

  /** The next `POST /{id}/messages` of this number fail as given (in order). */
  failNextSends(phoneNumberId: string, ...failures: GraphFailure[]) {
    this.failures.set(phoneNumberId, [...(this.failures.get(phoneNumberId) ?? []), ...failures]);
  }

  /** A customer's media, as WhatsApp keeps it for the webhook's media id. */
  addCustomerMedia(
    bytes: Buffer,
    mime: string,
    fileName = 'file',
    hostile: Pick<GraphMedia, 'lookupUrl' | 'redirectTo'> = {},
  ): string {
    const id = String(900_000_000_000 + this.nextId++);
    this.media.set(id, { id, bytes, mime, fileName, owner: null, ...hostile });
    return id;
  }

  /** The messages sent to `to` (digits) from this number. */
  sentTo(phoneNumberId: string, to: string): GraphSent[] {
    return this.sent.filter((s) => s.phoneNumberId === phoneNumberId && s.to === to);
  }

  private newWamid(): string {
    return `wamid.HBgL${randomBytes(12).toString('base64url')}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    try {
      const url = new URL(req.url ?? '/', 'http://local');
      this.requests.push({
        method: req.method ?? '',
        path: url.pathname,
        auth: req.headers.authorization,
      });
      const body = await readBody(req);
      const parts = url.pathname.split('/').filter(Boolean);
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token) return this.error(res, { ...GRAPH_ERRORS.invalidParameter, status: 400 });
      const owner = [...this.numbers.values()].find((n) => n.token === token);
      if (!owner || this.revoked.has(token)) return this.error(res, GRAPH_ERRORS.expiredToken);

      if (parts[0] === 'download' && parts[1]) return this.download(res, parts[1]);
      if (parts[0] !== GRAPH_VERSION) return this.error(res, GRAPH_ERRORS.invalidParameter);
      const [, id, edge] = parts;
      if (!id) return this.error(res, GRAPH_ERRORS.invalidParameter);
      const number = this.numbers.get(id);
      if (req.method === 'GET' && !edge) {
        if (number) {
          if (number.token !== token) return this.noObject(res, id);
          return this.json(res, {
            verified_name: number.verifiedName,
            display_phone_number: number.displayPhoneNumber,
            quality_rating: number.qualityRating,
            id: number.phoneNumberId,
          });
        }
        const media = this.media.get(id);
        if (media) {
          return this.json(res, {
            messaging_product: 'whatsapp',
            url: media.lookupUrl ?? `${this.url}/download/${media.id}?ext=${Date.now()}`,
            mime_type: media.mime,
            sha256: createHash('sha256').update(media.bytes).digest('hex'),
            file_size: media.bytes.length,
            id: media.id,
          });
        }
        return this.noObject(res, id);
      }
      if (req.method === 'GET' && edge === 'message_templates') {
        const waba = [...this.numbers.values()].find((n) => n.wabaId === id);
        if (!waba || waba.token !== token) return this.noObject(res, id);
        // Cursor paging as Graph pages: `limit` (25 by default), `after` a page's last cursor,
        // `next` only while a page follows.
        const all = (this.templates.get(id) ?? []).map((t, i) => ({ ...t, id: `${id}${i}` }));
        const cursor = (i: number) => Buffer.from(String(i)).toString('base64');
        const after = url.searchParams.get('after');
        const start = after ? Number(Buffer.from(after, 'base64').toString()) + 1 : 0;
        const limit = Number(url.searchParams.get('limit') ?? 25);
        const data = all.slice(start, start + limit);
        const last = start + data.length - 1;
        return this.json(res, {
          data,
          paging: {
            cursors: { before: cursor(start), after: cursor(last) },
            ...(last < all.length - 1
              ? {
                  next: `${this.url}/${GRAPH_VERSION}/${id}/message_templates?limit=${limit}&after=${cursor(last)}`,
                }
              : {}),
          },
        });
      }
      if (!number || number.token !== token) return this.noObject(res, id);
      if (req.method === 'POST' && edge === 'media') return await this.upload(req, res, body, id);
      if (req.method === 'POST' && edge === 'messages') return this.send(res, body, number);
      return this.error(res, GRAPH_ERRORS.invalidParameter);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(err), code: 1, type: 'OAuthException' } }));
    }
  }

  private send(res: ServerResponse, raw: Buffer, number: GraphNumber) {
    const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    if (body.messaging_product !== 'whatsapp') {
      return this.error(res, { ...GRAPH_ERRORS.invalidParameter, details: 'messaging_product' });
    }
    if (body.status === 'read') {
      if (typeof body.message_id !== 'string')
        return this.error(res, GRAPH_ERRORS.invalidParameter);
      this.readMarks.push(body.message_id);
      return this.json(res, { success: true });
    }
    const failure = this.failures.get(number.phoneNumberId)?.shift();
    if (failure) return this.error(res, failure);
    // The number's throughput: one message more than it allows in any second is refused.
    const now = Date.now();
    const recent = (this.lastSecond.get(number.phoneNumberId) ?? []).filter((t) => t > now - 1000);
    this.lastSecond.set(number.phoneNumberId, recent);
    if (recent.length >= this.throughputPerSecond) {
      this.throughputRefusals.push({ phoneNumberId: number.phoneNumberId, at: now });
      return this.error(res, GRAPH_ERRORS.throughput);
    }
    const to = String(body.to ?? '');
    const type = String(body.type ?? 'text');
    if (!/^[0-9]{5,20}$/.test(to)) return this.error(res, GRAPH_ERRORS.invalidParameter);
    const part = body[type] as Record<string, unknown> | undefined;
    if (!part) return this.error(res, { ...GRAPH_ERRORS.invalidParameter, details: type });
    if (type === 'text' && typeof part.body !== 'string') {
      return this.error(res, GRAPH_ERRORS.invalidParameter);
    }
    if (type === 'template') {
      const refused = this.checkTemplate(number, part);
      if (refused) return this.error(res, refused);
    }
    if (['image', 'audio', 'video', 'document', 'sticker'].includes(type)) {
      const mediaId = part.id as string | undefined;
      if (mediaId && !this.media.has(mediaId)) {
        return this.error(res, { ...GRAPH_ERRORS.invalidParameter, details: 'media id' });
      }
    }
    const wamid = this.newWamid();
    recent.push(now);
    this.sent.push({ phoneNumberId: number.phoneNumberId, wamid, to, type, body, at: now });
    return this.json(res, {
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id: wamid, ...(type === 'template' ? { message_status: 'accepted' } : {}) }],
    });
  }

  /**
   * A template send as Meta checks it: an approved template of the number's WABA in that
   * language (else 132001), and exactly the parameters its parts take: one per {{n}} of a TEXT
   * header and of the body, one for each URL button with a {{1}} suffix (else 132000).
   */
  private checkTemplate(number: GraphNumber, part: Record<string, unknown>): GraphFailure | null {
    const language = (part.language as { code?: unknown } | undefined)?.code;
    const template = (this.templates.get(number.wabaId) ?? []).find(
      (t) => t.name === part.name && t.language === language && t.status === 'APPROVED',
    );
    if (!template) {
      return {
        ...GRAPH_ERRORS.templateMissing,
        details: `template name (${String(part.name)}) does not exist in ${String(language)}`,
      };
    }
    const given = (part.components ?? []) as Array<{
      type?: string;
      sub_type?: string;
      index?: string | number;
      parameters?: Array<{ type?: string; text?: unknown }>;
    }>;
    const textsOf = (c: (typeof given)[number] | undefined) => c?.parameters ?? [];
    const mismatch = (where: string, got: number, want: number): GraphFailure => ({
      ...GRAPH_ERRORS.templateParameters,
      details: `${where}: number of localizable_params (${got}) does not match the expected number of params (${want})`,
    });
    for (const c of given) {
      if (textsOf(c).some((p) => p.type !== 'text' || typeof p.text !== 'string' || !p.text)) {
        return { ...GRAPH_ERRORS.invalidParameter, details: 'parameter text' };
      }
    }
    const header = template.components.find((c) => c.type === 'HEADER');
    const headerWants =
      header && (header.format ?? 'TEXT') === 'TEXT' ? placeholders(header.text) : 0;
    const headerGot = textsOf(given.find((c) => c.type === 'header')).length;
    if (headerGot !== headerWants) return mismatch('header', headerGot, headerWants);
    const bodyWants = placeholders(template.components.find((c) => c.type === 'BODY')?.text);
    const bodyGot = textsOf(given.find((c) => c.type === 'body')).length;
    if (bodyGot !== bodyWants) return mismatch('body', bodyGot, bodyWants);
    const buttons = template.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
    const givenButtons = given.filter((c) => c.type === 'button');
    for (const [i, b] of buttons.entries()) {
      const wants = b.type === 'URL' ? placeholders(b.url) : 0;
      const got = givenButtons.filter((c) => String(c.index) === String(i));
      const count = got.reduce((n, c) => n + textsOf(c).length, 0);
      if (count !== wants || (got.length > 0 && got[0]!.sub_type !== 'url')) {
        return mismatch(`button ${i}`, count, wants);
      }
    }
    if (givenButtons.some((c) => Number(c.index) >= buttons.length)) {
      return mismatch('buttons', givenButtons.length, buttons.length);
    }
    return null;
  }

  private async upload(req: IncomingMessage, res: ServerResponse, body: Buffer, owner: string) {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data')) {
      return this.error(res, GRAPH_ERRORS.invalidParameter);
    }
    const form = await new Request('http://local/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(body),
    }).formData();
    const file = form.get('file');
    if (form.get('messaging_product') !== 'whatsapp' || !file || typeof file === 'string') {
      return this.error(res, GRAPH_ERRORS.invalidParameter);
    }
    const id = String(800_000_000_000 + this.nextId++);
    this.media.set(id, {
      id,
      bytes: Buffer.from(await file.arrayBuffer()),
      mime: String(form.get('type') ?? file.type),
      fileName: file.name,
      owner,
    });
    return this.json(res, { id });
  }

  private download(res: ServerResponse, id: string) {
    const media = this.media.get(id);
    if (!media) return this.noObject(res, id);
    if (media.redirectTo) {
      res.writeHead(302, { location: media.redirectTo, 'content-length': 0 });
      return res.end();
    }
    res.writeHead(200, { 'content-type': media.mime, 'content-length': media.bytes.length });
    res.end(media.bytes);
  }

  private noObject(res: ServerResponse, id: string) {
    return this.error(res, {
      status: 400,
      code: 100,
      subcode: 33,
      type: 'GraphMethodException',
      message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    });
  }

  private json(res: ServerResponse, body: unknown) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private error(res: ServerResponse, f: GraphFailure) {
    res.writeHead(f.status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: {
          message: f.message,
          type: f.type ?? 'OAuthException',
          code: f.code,
          ...(f.subcode !== undefined ? { error_subcode: f.subcode } : {}),
          ...(f.details
            ? { error_data: { messaging_product: 'whatsapp', details: f.details } }
            : {}),
          fbtrace_id: `A${randomBytes(8).toString('base64url')}`,
        },
      }),
    );
  }

  // ---- Webhooks: what Meta POSTs to the app's callback URL (field "messages") ----

  /** The webhook body of one change on the `messages` field of this number. */
  envelope(number: GraphNumber, value: Record<string, unknown>) {
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: number.wabaId,
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: {
                  display_phone_number: number.displayPhoneNumber.replace(/[^0-9]/g, ''),
                  phone_number_id: number.phoneNumberId,
                },
                ...value,
              },
              field: 'messages',
            },
          ],
        },
      ],
    };
  }

  /** A customer's message (`message` holds `type` and its part, e.g. `{ type: 'text', text: { body } }`). */
  inbound(
    number: GraphNumber,
    customer: { wa_id: string; name: string },
    message: Record<string, unknown>,
    wamid = this.newWamid(),
  ) {
    return this.envelope(number, {
      contacts: [{ profile: { name: customer.name }, wa_id: customer.wa_id }],
      messages: [
        {
          from: customer.wa_id,
          id: wamid,
          timestamp: String(Math.floor(Date.now() / 1000)),
          ...message,
        },
      ],
    });
  }

  /** A status of a message the business sent (sent, delivered, read, failed with its error). */
  status(
    number: GraphNumber,
    wamid: string,
    to: string,
    status: 'sent' | 'delivered' | 'read' | 'failed',
    error?: GraphFailure,
  ) {
    return this.envelope(number, {
      statuses: [
        {
          id: wamid,
          status,
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: to,
          ...(error
            ? {
                errors: [
                  {
                    code: error.code,
                    title: error.message,
                    message: error.message,
                    error_data: { details: error.details ?? error.message },
                  },
                ],
              }
            : {}),
        },
      ],
    });
  }
}

/** `X-Hub-Signature-256` of a webhook body, as Meta computes it. */
export function hubSignature(appSecret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** POSTs a webhook to `url` signed with the app secret (or a forged signature). */
export async function postWebhook(
  url: string,
  appSecret: string,
  payload: unknown,
  options: { signature?: string } = {},
): Promise<{ status: number; text: string }> {
  const body = JSON.stringify(payload);
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': options.signature ?? hubSignature(appSecret, body),
    },
    body,
  });
  return { status: res.status, text: await res.text() };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
