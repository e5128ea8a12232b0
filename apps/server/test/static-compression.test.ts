import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.js';

// A built web app as `npm run build` leaves it: each text file with its .br and .gz beside it
// (apps/web/scripts/precompress.mjs); one asset has only a .gz, one nothing.
const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const INDEX = `<!doctype html><html><head><title>Parley</title><script type="module" src="/assets/app-1a2b3c.js"></script></head><body><div id="root"></div></body></html>`;
const GZ_ONLY = `.only-gzip { color: red; }\n`.repeat(50);

let web: TestApp;

function writeCompressed(file: string, text: string, encodings: ('br' | 'gz')[]) {
  writeFileSync(file, text);
  if (encodings.includes('br')) writeFileSync(`${file}.br`, brotliCompressSync(text));
  if (encodings.includes('gz')) writeFileSync(`${file}.gz`, gzipSync(text));
}

beforeAll(async () => {
  const probe = await createTestApp();
  const webDir = path.join(probe.config.dataDir, 'web-compressed');
  await probe.close();
  mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  writeCompressed(path.join(webDir, 'index.html'), INDEX, ['br', 'gz']);
  writeCompressed(path.join(webDir, 'assets', 'app-1a2b3c.js'), SCRIPT, ['br', 'gz']);
  writeCompressed(path.join(webDir, 'assets', 'only-gzip.css'), GZ_ONLY, ['gz']);
  writeCompressed(path.join(webDir, 'assets', 'plain.txt'), 'plain', []);
  web = await createTestApp({ webDir });
});
afterAll(async () => web?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  web.app.inject({ method: 'GET', url, headers });

describe('precompressed static files', () => {
  it('sends brotli to a browser that accepts it, with Vary and year-long immutable caching', async () => {
    const res = await get('/assets/app-1a2b3c.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
  });

  it('sends gzip when gzip is all the client takes, and the file itself when it takes neither', async () => {
    const gz = await get('/assets/app-1a2b3c.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const plain = await get('/assets/app-1a2b3c.js', headers);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      // The uncompressed answer varies too: a shared cache must not hand it to a browser
      // that takes brotli (or the other way round).
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body).toBe(SCRIPT);
    }
  });

  it('falls back to the variants that exist (only .gz, or none)', async () => {
    const css = await get('/assets/only-gzip.css', { 'accept-encoding': 'br, gzip' });
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(css.headers['content-type']).toMatch(/text\/css/);
    expect(gunzipSync(css.rawPayload).toString()).toBe(GZ_ONLY);

    const txt = await get('/assets/plain.txt', { 'accept-encoding': 'br, gzip' });
    expect(txt.headers['content-encoding']).toBeUndefined();
    expect(txt.body).toBe('plain');
  });

  it('serves index.html compressed for every client route, never cached without revalidation', async () => {
    for (const url of ['/', '/login', '/home/chat', '/index.html']) {
      const br = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(br.statusCode, url).toBe(200);
      expect(br.headers['content-type'], url).toMatch(/text\/html/);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers.vary, url).toMatch(/accept-encoding/i);
      expect(br.headers['cache-control'], url).toMatch(/no-cache|max-age=0/);
      expect(br.headers['cache-control'], url).not.toMatch(/immutable|max-age=[1-9]/);
      expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(INDEX);
    }
    const gz = await get('/home/chat', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(INDEX);
    const plain = await get('/home/chat');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(INDEX);
  });

  it('answers HEAD, ranges and revalidation for the variant sent', async () => {
    const head = await web.app.inject({
      method: 'HEAD',
      url: '/assets/app-1a2b3c.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBe(brotliCompressSync(SCRIPT).length);
    expect(head.body).toBe('');

    const range = await get('/assets/app-1a2b3c.js', { range: 'bytes=0-9' });
    expect(range.statusCode).toBe(206);
    expect(range.body).toBe(SCRIPT.slice(0, 10));
    expect(range.headers['content-range']).toBe(`bytes 0-9/${SCRIPT.length}`);

    const first = await get('/assets/app-1a2b3c.js', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toBeTruthy();
    // Another representation has another validator.
    const plainEtag = String((await get('/assets/app-1a2b3c.js')).headers.etag);
    expect(plainEtag).not.toBe(etag);
    const again = await get('/assets/app-1a2b3c.js', {
      'accept-encoding': 'br',
      'if-none-match': etag,
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('keeps the security headers on compressed files and on index.html', async () => {
    for (const url of ['/assets/app-1a2b3c.js', '/login']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });
});
