import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from './loopback.js';
import type { PlatformOutbound } from '@parley/protocol';
import {
  checkSignature,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
} from '../src/channels/platform/platform-signature.js';

export interface Received {
  body: PlatformOutbound;
  key: string;
  signature: 'ok' | 'missing' | 'bad_signature' | 'stale';
  answered: number;
}

/**
 * A messaging platform's endpoint as docs/platform-api.md describes it: checks the signature,
 * honours the idempotency key (a key seen before is answered with the same external id and
 * not delivered again) and answers what `respond` says for each request.
 */
export async function startReceiver(
  secret: string,
  respond: (n: number, body: PlatformOutbound) => number = () => 200,
) {
  const raw: Received[] = [];
  const delivered = new Map<string, PlatformOutbound>();
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const signature = checkSignature(
        secret,
        req.headers[TIMESTAMP_HEADER],
        req.headers[SIGNATURE_HEADER],
        bytes,
      );
      const body = JSON.parse(bytes.toString('utf8')) as PlatformOutbound;
      const key = String(req.headers['idempotency-key']);
      const status = signature === 'ok' ? respond(++n, body) : 401;
      raw.push({ body, key, signature, answered: status });
      if (status === 200 && !delivered.has(key)) delivered.set(key, body);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 200 ? { external_id: `ext-${key}` } : { error: 'no' }));
    });
  });
  const base = await listenOnLoopback(server);
  return {
    url: `${base}/parley`,
    raw,
    delivered,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
