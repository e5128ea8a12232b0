import { createHmac, timingSafeEqual } from 'node:crypto';
import { open, readFile, rm, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { writeAll } from '../../lib/spool.js';
import {
  PLATFORM_SIGNATURE_HEADER,
  PLATFORM_SIGNATURE_MAX_AGE_MS,
  PLATFORM_TIMESTAMP_HEADER,
} from '@parley/protocol';

/** Headers of a signed request, both ways (docs/platform-api.md). */
export const TIMESTAMP_HEADER = PLATFORM_TIMESTAMP_HEADER;
export const SIGNATURE_HEADER = PLATFORM_SIGNATURE_HEADER;
/** A request older (or further in the future) than this is refused as stale. */
export const SIGNATURE_MAX_AGE_MS = PLATFORM_SIGNATURE_MAX_AGE_MS;

/** HMAC-SHA256 (hex) over `${timestamp}.${rawBody}`; the timestamp is epoch seconds. */
export function signPayload(secret: string, timestamp: string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The two headers for `body`, signed now. */
export function signedHeaders(secret: string, body: Buffer | string, nowMs = Date.now()) {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: signPayload(secret, timestamp, body),
  };
}

export type SignatureCheck = 'ok' | 'missing' | 'bad_signature' | 'stale';

/**
 * What can be checked before the body is read: both headers there, well formed, and the
 * timestamp fresh. (The clock is no secret: every response carries a Date header.)
 */
export function checkSignatureHeaders(
  timestamp: unknown,
  signature: unknown,
  nowMs = Date.now(),
): SignatureCheck {
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return 'missing';
  if (!/^[0-9]{1,12}$/.test(timestamp) || !/^[0-9a-f]{64}$/i.test(signature)) {
    return 'bad_signature';
  }
  if (Math.abs(nowMs - Number(timestamp) * 1000) > SIGNATURE_MAX_AGE_MS) return 'stale';
  return 'ok';
}

function sameDigest(expectedHex: string, signature: string): boolean {
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(signature, 'hex'));
}

/** Checks a request's headers against its raw body; compares in constant time. */
export function checkSignature(
  secret: string,
  timestamp: unknown,
  signature: unknown,
  body: Buffer,
  nowMs = Date.now(),
): SignatureCheck {
  const headers = checkSignatureHeaders(timestamp, signature, nowMs);
  if (headers !== 'ok') return headers;
  const ok = sameDigest(signPayload(secret, timestamp as string, body), signature as string);
  return ok ? 'ok' : 'bad_signature';
}

/** A body went past its route's cap: Fastify's own error, answered as 100001. */
export class BodyTooLargeError extends Error {
  readonly statusCode = 413;
  readonly code = 'FST_ERR_CTP_BODY_TOO_LARGE';
  constructor() {
    super('Request body is too large');
  }
}

/** Bodies up to this size are kept in memory while their signature is computed. */
const IN_MEMORY_MAX = 256 * 1024;

/**
 * Reads a signed body while computing its HMAC, and hands it over only when the signature
 * holds. Past IN_MEMORY_MAX bytes it goes to a temp file, so a forged request holds a chunk
 * of memory, not its whole body; past `limit` bytes reading stops.
 */
export async function readSignedBody(
  source: Readable,
  options: {
    secret: string;
    timestamp: string;
    signature: string;
    limit: number;
    tempPath: () => Promise<string>;
  },
): Promise<Buffer | null> {
  const hmac = createHmac('sha256', options.secret).update(`${options.timestamp}.`);
  let held: Buffer[] = [];
  let size = 0;
  let spill: { path: string; handle: FileHandle } | null = null;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.limit) throw new BodyTooLargeError();
      hmac.update(chunk);
      if (spill) {
        await writeAll(spill.handle, chunk);
      } else if (size <= IN_MEMORY_MAX) {
        held.push(chunk);
      } else {
        const path = await options.tempPath();
        spill = { path, handle: await open(path, 'wx', 0o600) };
        await writeAll(spill.handle, Buffer.concat([...held, chunk]));
        held = [];
      }
    }
    if (!sameDigest(hmac.digest('hex'), options.signature)) return null;
    if (!spill) return Buffer.concat(held);
    await spill.handle.close();
    return await readFile(spill.path);
  } finally {
    if (spill) {
      await spill.handle.close().catch(() => undefined);
      await rm(spill.path, { force: true });
    }
  }
}
