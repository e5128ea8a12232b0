import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, UPLOAD_PATH } from '@parley/protocol';
import { buildApp } from '../src/app.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';
import { multipart } from './media-helpers.js';

// The media store's disk full, or read-only, for real: a 1 MB tmpfs mounted as the media
// directory (CI runs as root; without mount this test fails, it does not skip). Uploads then
// answered 500001, once with a reset connection, and logged "unhandled error ENOSPC" per
// request. Now: 507001 / 507002 with a reason the console translates, nothing half-stored,
// one log line per condition, and metrics an alert can read.

const METRICS_TOKEN = 'media-storage-metrics-token';
type LogLine = { msg: string; level: number } & Record<string, unknown>;

let mediaDir: string;
let mounted = false;
let t: TestApp;
let base: string;
let seat: SeatFixture;
const lines: LogLine[] = [];

function mount(...args: string[]) {
  execFileSync('mount', args, { stdio: 'pipe' });
}

beforeAll(async () => {
  mediaDir = mkdtempSync(path.join(tmpdir(), 'parley-media-tmpfs-'));
  // No skip: a machine that cannot mount cannot run this test, and says so.
  mount('-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mediaDir);
  mounted = true;
  const { config, cleanup } = await createTestDatabaseConfig({
    mediaDir,
    logLevel: 'info',
    logFormat: 'json',
    ops: { metricsToken: METRICS_TOKEN, shutdownTimeoutMs: 10_000, shutdownGraceMs: 0 },
  });
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
  const app = await buildApp(config, { logStream: stream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t = testAppOf(app, config, cleanup);
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  seat = await createSeat(t, 'storage-faults');
}, 60_000);

afterAll(async () => {
  await t?.close();
  if (mounted) mount('-o', 'remount,rw', mediaDir);
  if (mounted) execFileSync('umount', [mediaDir]);
  rmSync(mediaDir, { recursive: true, force: true });
});

/** Uploads `bytes` as a file over a real connection: the envelope (a reset would throw). */
async function upload(bytes: Buffer) {
  const { payload, contentType } = multipart([
    { name: 'kind', value: 'file' },
    { name: 'file', filename: 'report.bin', content: bytes },
  ]);
  const res = await fetch(`${base}${UPLOAD_PATH}`, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: seat.token },
    body: payload,
  });
  return {
    status: res.status,
    body: (await res.json()) as { code: string; msg: string; data: unknown },
  };
}

/** Every file under the media directory but `skip`, with its size. */
function filesIn(dir: string, skip: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesIn(full, skip));
    else if (full !== skip) out.push(`${path.relative(mediaDir, full)} (${statSync(full).size})`);
  }
  return out;
}

async function mediaRows(): Promise<number> {
  const row = await t.db
    .selectFrom('media')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function metrics(): Promise<string> {
  const res = await fetch(`${base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return res.text();
}

const storageLines = (reason: string) =>
  lines.filter((l) => l.reason === reason && /media storage/.test(l.msg));

describe('media storage faults', () => {
  it('a full disk: 507001 for every upload, nothing half-stored, one log line, counted', async () => {
    const filler = path.join(mediaDir, 'filler');
    // Fill the tmpfs but ~96 KB: a 400 KB upload fails part-way through its temp file.
    writeFileSync(filler, Buffer.alloc(1024 * 1024 - 96 * 1024));
    const rowsBefore = await mediaRows();
    for (let i = 0; i < 4; i++) {
      const res = await upload(randomBytes(400 * 1024));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        code: '507001',
        msg: ERROR_MESSAGES['507001'],
        data: { reason: 'full' },
      });
    }
    expect(filesIn(mediaDir, filler)).toEqual([]);
    expect(await mediaRows()).toBe(rowsBefore);
    expect(storageLines('full')).toHaveLength(1);
    expect(lines.some((l) => /unhandled error/.test(l.msg))).toBe(false);
    const text = await metrics();
    expect(text).toMatch(/^parley_media_storage_errors_total\{reason="full"\} 4$/m);
    expect(text).toMatch(/^parley_media_storage_writable 0$/m);

    // Space freed: the next upload is stored, and the log says so once.
    rmSync(filler);
    const ok = await upload(randomBytes(400 * 1024));
    expect(ok.body.code, JSON.stringify(ok.body)).toBe('000000');
    expect(await mediaRows()).toBe(rowsBefore + 1);
    expect(lines.filter((l) => l.msg === 'media storage takes writes again')).toHaveLength(1);
    expect(await metrics()).toMatch(/^parley_media_storage_writable 1$/m);
  }, 60_000);

  it('a read-only disk: 507002 for every upload, nothing stored, one log line, counted', async () => {
    mount('-o', 'remount,ro', mediaDir);
    try {
      const before = filesIn(mediaDir, '');
      const rowsBefore = await mediaRows();
      for (let i = 0; i < 3; i++) {
        const res = await upload(randomBytes(20 * 1024));
        expect(res.body).toEqual({
          code: '507002',
          msg: ERROR_MESSAGES['507002'],
          data: { reason: 'read_only' },
        });
      }
      expect(filesIn(mediaDir, '')).toEqual(before);
      expect(await mediaRows()).toBe(rowsBefore);
      expect(storageLines('read_only')).toHaveLength(1);
      const text = await metrics();
      expect(text).toMatch(/^parley_media_storage_errors_total\{reason="read_only"\} 3$/m);
      expect(text).toMatch(/^parley_media_storage_writable 0$/m);
    } finally {
      mount('-o', 'remount,rw', mediaDir);
    }
  }, 60_000);
});
