import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import { rateLimitConfig } from '../../plugins/rate-limit.js';
import { BodyTooLargeError } from '../platform/platform-signature.js';
import type { WaWebhook, WhatsappInbound } from './whatsapp-inbound.js';
import { webhookPath } from './whatsapp-numbers.service.js';
import { whatsappRepository } from './whatsapp.repository.js';

/**
 * A webhook's JSON is small (media come by id, fetched afterwards): a cap far under the
 * platform API's, and the body is held as raw bytes until its signature holds.
 */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** Never any number's secret: what an unbound number's body is checked against. */
const UNBOUND_SECRET = randomBytes(32).toString('hex');

/** `X-Hub-Signature-256: sha256=<hex>` over the raw body with the app secret, in constant time. */
export function signatureHolds(appSecret: string, header: unknown, body: Buffer): boolean {
  if (typeof header !== 'string') return false;
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!m) return false;
  const expected = createHmac('sha256', appSecret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(m[1]!, 'hex'));
}

/**
 * Meta's calls to a bound number's callback URL (Cloud API webhooks): the GET that verifies the
 * URL (hub.mode, hub.verify_token, hub.challenge), and the signed POSTs of the `messages` field.
 * An unbound number and a bad signature get the same 401, without touching anything.
 */
export async function whatsappRoutes(
  app: FastifyInstance,
  db: Db,
  inbound: WhatsappInbound,
  perMinute: number,
) {
  const path = webhookPath(':phoneNumberId');
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Raw bytes whatever the declared type: the signature covers exactly them.
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.addHook('onRequest', async (request) => {
      if (Number(request.headers['content-length'] ?? 0) > WEBHOOK_BODY_LIMIT) {
        throw new BodyTooLargeError();
      }
    });
    scope.get<{
      Params: { phoneNumberId: string };
      Querystring: Record<string, string | undefined>;
    }>(path, { config: rateLimitConfig(perMinute) }, async (request, reply) => {
      const q = request.query;
      const number = await whatsappRepository.findByNumberId(db, request.params.phoneNumberId);
      const token = q['hub.verify_token'];
      const ok =
        number !== undefined &&
        q['hub.mode'] === 'subscribe' &&
        typeof token === 'string' &&
        token.length === number.verify_token.length &&
        timingSafeEqual(Buffer.from(token), Buffer.from(number.verify_token));
      if (!ok) return reply.code(403).type('text/plain').send('Forbidden');
      return reply
        .code(200)
        .type('text/plain')
        .send(q['hub.challenge'] ?? '');
    });
    scope.post<{ Params: { phoneNumberId: string } }>(
      path,
      { bodyLimit: WEBHOOK_BODY_LIMIT, config: rateLimitConfig(perMinute) },
      async (request, reply) => {
        const number = await whatsappRepository.findForWebhook(db, request.params.phoneNumberId);
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        // An unbound number is checked against a throwaway secret and answers as a bad
        // signature does: an unsigned caller cannot tell which numbers are bound.
        const secret = number?.app_secret ?? UNBOUND_SECRET;
        if (!signatureHolds(secret, request.headers['x-hub-signature-256'], body) || !number) {
          return reply.code(401).type('text/plain').send('Bad signature');
        }
        let payload: WaWebhook;
        try {
          payload = JSON.parse(body.toString('utf8')) as WaWebhook;
        } catch {
          return reply.code(400).type('text/plain').send('Bad JSON');
        }
        if (!payload || typeof payload !== 'object') {
          return reply.code(400).type('text/plain').send('Bad JSON');
        }
        // Handled before answering: a failure answers 500 and Meta delivers again (taken once
        // per wamid).
        await inbound.handle(number, payload);
        return reply.code(200).type('text/plain').send('EVENT_RECEIVED');
      },
    );
  });
}
