import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { UPLOAD_PATH, media as mediaSchema, type Media } from '@parley/protocol';
import { assertNoStack, type Answer, type TestApp } from './helper.js';

/** The committed corpus shared with the browser tests (see its README). */
export const CORPUS = fileURLToPath(new URL('../../../e2e/fixtures/media/', import.meta.url));

export function corpus(name: string): Buffer {
  return readFileSync(path.join(CORPUS, name));
}

export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; content: Buffer; contentType?: string };

/** A multipart/form-data body, as a browser's FormData would send it. */
export function multipart(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----parley-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.content,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** POST /v1/seat/chat/upload; the answer must be a coded envelope without a stack. */
export async function uploadParts(
  t: TestApp,
  token: string | null,
  parts: Part[],
): Promise<Answer<Media>> {
  const { payload, contentType } = multipart(parts);
  const res = await t.app.inject({
    method: 'POST',
    url: UPLOAD_PATH,
    headers: { 'content-type': contentType, ...(token ? { authorization: token } : {}) },
    payload,
  });
  assertNoStack(res.body);
  const json = JSON.parse(res.body) as { code: string; msg: string; data: Media };
  if (json.code === '000000') expect(mediaSchema.safeParse(json.data).success).toBe(true);
  return { status: res.statusCode, code: json.code, msg: json.msg, data: json.data, raw: res.body };
}

/** Uploads one corpus file (or given bytes) as `kind`, declared as `contentType`. */
export function upload(
  t: TestApp,
  token: string | null,
  kind: string,
  file: { name: string; content?: Buffer; filename?: string; contentType?: string },
  extra: Part[] = [],
) {
  return uploadParts(t, token, [
    { name: 'kind', value: kind },
    ...extra,
    {
      name: 'file',
      filename: file.filename ?? file.name,
      content: file.content ?? corpus(file.name),
      contentType: file.contentType,
    },
  ]);
}

/** An upload that must succeed. */
export async function uploaded(
  t: TestApp,
  token: string,
  kind: string,
  name: string,
  extra: Part[] = [],
): Promise<Media> {
  const res = await upload(t, token, kind, { name }, extra);
  expect(res.code, res.raw).toBe('000000');
  return res.data;
}

/** Every stored file under the media directory (temp files included). */
export function storedFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** GET a media URL as a browser's <img> or <audio> would (no token). */
export function fetchMedia(t: TestApp, url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}
