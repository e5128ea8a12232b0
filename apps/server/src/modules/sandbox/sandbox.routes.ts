import type { FastifyInstance } from 'fastify';
import { SANDBOX_PATHS, phone } from '@parley/protocol';
import { invalidField, notFound } from '../../lib/app-error.js';
import { contentDisposition } from '../../lib/file-name.js';
import { CODED_CALL, sendSuccess } from '../../plugins/errors.js';
import type { SandboxService } from './sandbox.service.js';

function phoneParam(value: unknown, name: string): string {
  const parsed = phone.safeParse(value);
  if (!parsed.success) throw invalidField(name, 'invalid phone number format');
  return parsed.data;
}

/** The customer sandbox's calls (no seat token: it plays a customer). Registered only when on. */
export function sandboxRoutes(app: FastifyInstance, sandbox: SandboxService, bodyLimit: number) {
  app.get(SANDBOX_PATHS.accounts, CODED_CALL, async (_req, reply) =>
    sendSuccess(reply, { list: await sandbox.accounts() }),
  );
  app.get(SANDBOX_PATHS.chat, CODED_CALL, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const list = await sandbox.chat(
      phoneParam(q.account, 'account'),
      phoneParam(q.customer, 'customer'),
      q.visible === '1',
    );
    return sendSuccess(reply, { list });
  });
  app.post(SANDBOX_PATHS.send, { ...CODED_CALL, bodyLimit }, async (req, reply) =>
    sendSuccess(reply, await sandbox.send(req.body)),
  );
  app.get(`${SANDBOX_PATHS.media}/:id`, async (req, reply) => {
    const id = Number((req.params as { id: string }).id);
    if (!Number.isInteger(id) || id <= 0) throw notFound();
    const media = await sandbox.mediaOf(id);
    // Downloaded under its original name; nothing served here may run (as the seat's media).
    return reply
      .type(media.contentType)
      .header(
        'content-disposition',
        contentDisposition(media.inline ? 'inline' : 'attachment', media.fileName),
      )
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, max-age=3600')
      .send(media.stream);
  });
}
