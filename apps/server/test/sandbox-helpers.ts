import { randomBytes } from 'node:crypto';
import { SANDBOX_KEY_HEADER, SANDBOX_PATHS, type SandboxEntry } from '@parley/protocol';
import type { TestApp } from './helper.js';

/** A browser's sandbox key, as the page makes one (32 random bytes, base64url). */
export const browserKey = () => randomBytes(32).toString('base64url');

const keyHeader = (key: string | null): Record<string, string> =>
  key === null ? {} : { [SANDBOX_KEY_HEADER]: key };

/** The customer sandbox as one browser (its key) sees it. */
export function sandboxAs(t: TestApp, key: string | null) {
  return {
    async get(url: string) {
      const res = await t.app.inject({ method: 'GET', url, headers: keyHeader(key) });
      return JSON.parse(res.body) as { code: string; data: { list: SandboxEntry[] } | null };
    },
    async chat(account: string, customer: string, visible = true) {
      const q = new URLSearchParams({ account, customer, visible: visible ? '1' : '0' });
      return this.get(`${SANDBOX_PATHS.chat}?${q.toString()}`);
    },
    async send(body: Record<string, unknown>) {
      const res = await t.app.inject({
        method: 'POST',
        url: SANDBOX_PATHS.send,
        headers: { 'content-type': 'application/json', ...keyHeader(key) },
        payload: JSON.stringify(body),
      });
      return JSON.parse(res.body) as { code: string; data: SandboxEntry };
    },
  };
}
