import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, UPLOAD_PATH } from '@parley/protocol';
import { buildApp } from '../src/app.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';
import { corpus, multipart } from './media-helpers.js';

// Issue 34: a media directory on a file system mounted read-only before Parley ever wrote to
// it (fresh: no tmp/ nor shard folders). Node 20's recursive mkdir reports ENOENT there, not
// EROFS, so uploads answered 500001 with "unhandled error" and the metric stayed 1. A real
// read-only tmpfs (CI runs as root; without mount this test fails, it does not skip), as the
// store itself and as a parent of a media directory that does not exist yet.

const METRICS_TOKEN = 'media-read-only-metrics-token';
type LogLine = { msg: string } & Record<string, unknown>;

let mountPoint: string;
let mounted = false;
const apps: TestApp[] = [];

beforeAll(() => {
  mountPoint = mkdtempSync(path.join(tmpdir(), 'parley-media-ro-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', mountPoint], {
    stdio: 'pipe',
  });
  mounted = true;
});

afterAll(async () => {
  for (const t of apps) await t.close();
  if (mounted) execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

async function start(mediaDir: string) {
  const lines: LogLine[] = [];
  const { config, cleanup } = await createTestDatabaseConfig({
    mediaDir,
    logLevel: 'info',
    logFormat: 'json',
    ops: { metricsToken: METRICS_TOKEN, shutdownTimeoutMs: 10_000, shutdownGraceMs: 0 },
  });
  const app = await buildApp(config, {
    logStream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const t = testAppOf(app, config, cleanup);
  apps.push(t);
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const seat = await createSeat(t, `ro-${apps.length}`);
  return { t, base, seat, lines };
}

async function upload(base: string, seat: SeatFixture, kind: string, name: string, bytes: Buffer) {
  const { payload, contentType } = multipart([
    { name: 'kind', value: kind },
    { name: 'file', filename: name, content: bytes },
  ]);
  const res = await fetch(`${base}${UPLOAD_PATH}`, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: seat.token },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('a fresh read-only media folder', () => {
  it.each([
    ['the store itself', () => mountPoint],
    ['a parent of a store not made yet', () => path.join(mountPoint, 'parley', 'media')],
  ])('%s: 507002 for every upload, the metric set, nothing written', async (_what, dirOf) => {
    const { base, seat, lines, t } = await start(dirOf());
    for (const [kind, name, bytes] of [
      ['file', 'report.bin', randomBytes(20 * 1024)],
      ['image', 'photo.jpg', corpus('photo.jpg')],
    ] as const) {
      const res = await upload(base, seat, kind, name, bytes);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        code: '507002',
        msg: ERROR_MESSAGES['507002'],
        data: { reason: 'read_only' },
      });
    }
    expect(readdirSync(mountPoint)).toEqual([]);
    expect(lines.some((l) => /unhandled error/.test(l.msg))).toBe(false);
    expect(
      lines.filter((l) => l.reason === 'read_only' && /media storage/.test(l.msg)),
    ).toHaveLength(1);
    const media = await t.db
      .selectFrom('media')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(media.n)).toBe(0);
    const metrics = await (
      await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(metrics).toMatch(/^parley_media_storage_errors_total\{reason="read_only"\} 2$/m);
    expect(metrics).toMatch(/^parley_media_storage_writable 0$/m);
  });
});
