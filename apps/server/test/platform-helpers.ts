import { signedHeaders } from '../src/channels/platform/platform-signature.js';
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
