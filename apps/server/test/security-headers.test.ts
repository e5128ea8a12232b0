import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
let webDir: string;

beforeAll(async () => {
  webDir = mkdtempSync(path.join(tmpdir(), 'parley-web-'));
  mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Parley</title>');
  writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1)');
  t = await createTestApp({ webDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDir, { recursive: true, force: true });
});

/** What a reviewer checks on every answer: no sniffing, no framing, no referrer, a CSP. */
function expectSecurityHeaders(headers: Record<string, unknown>, what: string) {
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).not.toMatch(/script-src[^;]*unsafe/);
  expect(csp, what).not.toContain('upgrade-insecure-requests');
}

describe('security headers', () => {
  it('are on the console page, its assets, calls, refusals, unknown paths and health', async () => {
    const answers = {
      page: await t.app.inject({ method: 'GET', url: '/home/chat' }),
      asset: await t.app.inject({ method: 'GET', url: '/assets/app.js' }),
      call: await t.app.inject({
        method: 'POST',
        url: '/v1/seat/chat/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ account: 'nobody', password: 'x' }),
      }),
      malformed: await t.app.inject({
        method: 'POST',
        url: '/v1/seat/chat/login',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
      unknown: await t.app.inject({ method: 'POST', url: '/v1/seat/chat/nope' }),
      health: await t.app.inject({ method: 'GET', url: '/healthz' }),
    };
    for (const [what, res] of Object.entries(answers)) expectSecurityHeaders(res.headers, what);
    expect(answers.page.body).toContain('<title>Parley</title>');
  });

  it('HSTS only over TLS', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('security headers behind a TLS proxy', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ trustProxy: true });
  });
  afterAll(async () => proxied?.close());

  it('HSTS when the trusted proxy says the request came over https', async () => {
    const res = await proxied.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
