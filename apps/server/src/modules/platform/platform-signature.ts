import { createHmac, timingSafeEqual } from 'node:crypto';

/** Headers of a signed request, both ways (docs/platform-api.md). */
export const TIMESTAMP_HEADER = 'x-parley-timestamp';
export const SIGNATURE_HEADER = 'x-parley-signature';
/** A request older (or further in the future) than this is refused as stale. */
export const SIGNATURE_MAX_AGE_MS = 5 * 60_000;

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

/** Checks a request's headers against its raw body; compares in constant time. */
export function checkSignature(
  secret: string,
  timestamp: unknown,
  signature: unknown,
  body: Buffer,
  nowMs = Date.now(),
): SignatureCheck {
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return 'missing';
  if (!/^[0-9]{1,12}$/.test(timestamp)) return 'bad_signature';
  const expected = Buffer.from(signPayload(secret, timestamp, body), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : null;
  if (!given || !timingSafeEqual(expected, given)) return 'bad_signature';
  // Checked after the signature, so an attacker learns nothing about the clock from it.
  if (Math.abs(nowMs - Number(timestamp) * 1000) > SIGNATURE_MAX_AGE_MS) return 'stale';
  return 'ok';
}
