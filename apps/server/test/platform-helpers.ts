import { expect } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { signedHeaders } from '../src/channels/platform/platform-signature.js';
import { nextPhone } from './fixtures.js';
import type { Answer, TestApp } from './helper.js';

export const SECRET = 'test-platform-secret';

/** POSTs a body to the platform API, signed with `secret` at `nowMs` unless told otherwise. */
export async function platformPost(
  t: TestApp,
  url: string,
  body: string | Buffer,
  opts: {
    secret?: string;
    nowMs?: number;
    contentType?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': opts.contentType ?? 'application/json',
      ...(opts.headers ?? signedHeaders(opts.secret ?? SECRET, body, opts.nowMs)),
    },
    payload: body,
  });
  const json = JSON.parse(res.body) as { code: string; msg: string; data: unknown };
  return { status: res.statusCode, code: json.code, msg: json.msg, data: json.data, raw: res.body };
}

/** The platform bridge's settings for a test receiver at `url` (short retries). */
export function platformAt(url: string) {
  return { secret: SECRET, url, timeoutMs: 5_000, maxAttempts: 3, retryBaseMs: 10, leaseMs: 5_000 };
}

let inbound = 0;

/** A new customer writes "hi" to `account` through the platform: answers the customer's number. */
export async function platformChat(t: TestApp, account: string): Promise<string> {
  const customer = nextPhone('+4480');
  const res = await platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({
      id: `in-${process.pid}-${++inbound}`,
      account,
      customer,
      type: 'text',
      content: 'hi',
    }),
  );
  expect(res.code).toBe('000000');
  return customer;
}
