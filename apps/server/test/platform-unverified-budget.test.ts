import { readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { signedHeaders } from '../src/channels/platform/platform-signature.js';
import { loadConfig } from '../src/config.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { SECRET } from './platform-helpers.js';

// Forged platform requests (well-formed signature headers, a fresh timestamp, a wrong
// signature) must be read to their end before the HMAC can refuse them, and a body past 256 KB
// waits in a temp file meanwhile. Eight of 80 MB in parallel once put 598 MB of temp files on
// the disk. Now the bytes held for unverified bodies are reserved before a byte is read, per
// process and per client address; beyond, the request is refused at once (429 / 503 with
// Retry-After). Real sockets, from several client addresses (127.0.0.x), to a listening server.

const MB = 1024 * 1024;
const TOTAL_MAX = 200 * MB;
const PER_ADDRESS_MAX = 100 * MB;
const BODY = 80 * MB;

let t: TestApp;
let port: number;
let seat: SeatFixture;

beforeAll(async () => {
  t = await createTestApp({
    platform: {
      secret: SECRET,
      url: null,
      timeoutMs: 5_000,
      maxAttempts: 3,
      retryBaseMs: 10,
      leaseMs: 5_000,
      unverifiedMaxBytes: TOTAL_MAX,
      unverifiedPerAddressMaxBytes: PER_ADDRESS_MAX,
    },
  });
  await t.app.listen({ port: 0, host: '0.0.0.0' });
  port = (t.app.server.address() as AddressInfo).port;
  seat = await createSeat(t, 'budget-seat', 1);
});
afterAll(async () => t?.close());

interface Outcome {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes the client had written when the answer came. */
  writtenAtAnswer: number;
}

/** Streams `size` bytes (1 MB at a time, as the socket takes them) with the given headers. */
function stream(
  localAddress: string,
  headers: Record<string, string>,
  size: number,
): Promise<Outcome> {
  const chunk = Buffer.alloc(MB, 0x61);
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = http.request({
      host: '127.0.0.1',
      port,
      localAddress,
      method: 'POST',
      path: PLATFORM_PATHS.message,
      headers: { ...headers, 'content-length': String(size) },
      agent: false,
    });
    req.on('response', (res) => {
      answered = true;
      const writtenAtAnswer = written;
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, writtenAtAnswer }),
      );
      res.on('error', () => undefined);
    });
    // A refused request's connection closes under the client's feet: expected.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pump = () => {
      while (!answered && !req.destroyed && written < size) {
        const n = Math.min(chunk.length, size - written);
        written += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      if (written >= size) req.end();
    };
    pump();
  });
}

/** Bytes in the media store's temp directory (where unverified bodies are spilled). */
async function tempBytes(): Promise<number> {
  const dir = path.join(t.config.mediaDir, 'tmp');
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    return 0;
  }
  let sum = 0;
  for (const f of files)
    sum += await stat(path.join(dir, f)).then(
      (s) => s.size,
      () => 0,
    );
  return sum;
}

describe('unverified platform bodies are bounded', () => {
  it('8 parallel forged 80 MB bodies: disk and memory stay within the bound, the rest refused at once', async () => {
    const forged = {
      'content-type': 'application/octet-stream',
      // Fresh and well formed, signed with another secret.
      ...signedHeaders('not-the-secret', 'something else'),
    };
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peakDisk = 0;
    let peakRss = rssBefore;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peakDisk = Math.max(peakDisk, await tempBytes());
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // Four client addresses, two requests each.
    const addresses = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];
    const outcomes = await Promise.all(
      addresses.flatMap((a) => [stream(a, forged, BODY), stream(a, forged, BODY)]),
    );
    sampling = false;
    await sampler;

    const statuses = outcomes.map((o) => o.status).sort();
    // Read to the end and refused by the HMAC: at most what the bound holds at once.
    const readWhole = outcomes.filter((o) => o.status === 403);
    expect(readWhole.length, statuses.join()).toBeGreaterThanOrEqual(1);
    for (const o of readWhole) {
      expect(JSON.parse(o.body)).toMatchObject({
        code: '400003',
        data: { reason: 'bad_signature' },
      });
    }
    const refused = outcomes.filter((o) => o.status !== 403);
    // Both bounds were met: a second body from one address (429), and the process's (503).
    expect(statuses, statuses.join()).toContain(429);
    expect(statuses, statuses.join()).toContain(503);
    for (const o of refused) {
      expect([429, 503], o.body).toContain(o.status);
      expect(o.headers['retry-after']).toBe('5');
      expect(JSON.parse(o.body)).toEqual({
        code: o.status === 429 ? '500003' : '500005',
        msg: o.status === 429 ? 'Operation count exceeded limit' : 'Server busy',
        data: {
          reason: o.status === 429 ? 'unverified_bytes_per_address' : 'unverified_bytes',
          retry_after_ms: 5000,
        },
      });
      // At once: answered long before the client could send its 80 MB.
      expect(o.writtenAtAnswer).toBeLessThan(BODY / 2);
    }
    expect(peakDisk, `peak temp bytes ${peakDisk}`).toBeLessThanOrEqual(TOTAL_MAX);
    expect(peakRss - rssBefore, `RSS grew ${peakRss - rssBefore}`).toBeLessThanOrEqual(TOTAL_MAX);
    // Nothing left behind, and nothing reserved any more.
    expect(await tempBytes()).toBe(0);

    // A genuine signed request is served afterwards.
    const body = JSON.stringify({
      id: `budget-${process.pid}`,
      account: seat.phones[0],
      customer: nextPhone('+4481'),
      type: 'text',
      content: 'hi after the flood',
    });
    const res = await fetch(`http://127.0.0.1:${port}${PLATFORM_PATHS.message}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, body) },
      body,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { code: string }).code).toBe('000000');
  }, 180_000);

  it('a body larger than the bound can never fit: 100001 at once, not a retry', async () => {
    const res = await stream(
      '127.0.0.5',
      { 'content-type': 'application/octet-stream', ...signedHeaders('x', 'y') },
      PER_ADDRESS_MAX + 1,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: '100001' });
  });

  it('the bounds are configured in MB, with documented defaults', () => {
    expect(loadConfig({}).platform).toMatchObject({
      unverifiedMaxBytes: 256 * MB,
      unverifiedPerAddressMaxBytes: 128 * MB,
    });
    const set = loadConfig({
      PARLEY_PLATFORM_UNVERIFIED_MAX_MB: '64',
      PARLEY_PLATFORM_UNVERIFIED_PER_ADDRESS_MAX_MB: '0.5',
    }).platform;
    expect(set.unverifiedMaxBytes).toBe(64 * MB);
    expect(set.unverifiedPerAddressMaxBytes).toBe(MB / 2);
  });
});
