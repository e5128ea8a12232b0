import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SANDBOX_KEY_HEADER, SANDBOX_PATHS, phone } from '@parley/protocol';
import { invalidField } from '../../lib/app-error.js';
import { CODED_CALL, sendSuccess } from '../../plugins/errors.js';
import { rateLimitConfig } from '../../plugins/rate-limit.js';
import { sendMedia } from '../../modules/media/media-reply.js';
import type { MediaService } from '../../modules/media/media.service.js';
import type { SandboxService } from './sandbox.service.js';

function phoneParam(value: unknown, name: string): string {
  const parsed = phone.safeParse(value);
  if (!parsed.success) throw invalidField(name, 'invalid phone number format');
  return parsed.data;
}

const keyOf = (req: FastifyRequest): unknown => req.headers[SANDBOX_KEY_HEADER];

/**
 * The customer sandbox's calls (no seat token: it plays a customer; the browser's key in
 * SANDBOX_KEY_HEADER holds its customer numbers). Registered only when the sandbox is on.
 */
export function sandboxRoutes(
  app: FastifyInstance,
  sandbox: SandboxService,
  media: MediaService,
  limits: { bodyLimit: number; perMinute: number },
) {
  // Needs no seat token: limited per address like the login calls.
  const call = { config: { ...CODED_CALL.config, ...rateLimitConfig(limits.perMinute) } };
  app.get(SANDBOX_PATHS.accounts, call, async (_req, reply) =>
    sendSuccess(reply, { list: await sandbox.accounts() }),
  );
  app.get(SANDBOX_PATHS.chat, call, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const list = await sandbox.chat(
      phoneParam(q.account, 'account'),
      phoneParam(q.customer, 'customer'),
      q.visible === '1',
      keyOf(req),
    );
    return sendSuccess(reply, { list });
  });
  app.post(
    SANDBOX_PATHS.send,
    {
      ...call,
      bodyLimit: limits.bodyLimit,
      // No key, no body read (the declared size is checked by Fastify before reading too).
      onRequest: async (req) => void sandbox.checkKey(keyOf(req)),
    },
    async (req, reply) => sendSuccess(reply, await sandbox.send(req.body, keyOf(req))),
  );
  // Signed URLs, served like the seat's media (GET and HEAD in one route).
  app.route({
    method: ['GET', 'HEAD'],
    url: `${SANDBOX_PATHS.media}/:media_id`,
    handler: async (req, reply) => {
      const { media_id: mediaId } = req.params as { media_id: string };
      const served = await sandbox.openMedia(mediaId, req.query as Record<string, unknown>);
      return sendMedia(req, reply, served, media);
    },
  });
}
