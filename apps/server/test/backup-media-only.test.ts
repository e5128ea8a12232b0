import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST, type Manifest } from '../src/backup/backup.js';
import { runCli } from '../src/cli/run.js';
import type { Config } from '../src/config.js';
import { createSeat } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { uploaded } from './media-helpers.js';

/** On PostgreSQL the database is pg_dump's: the command backs up and restores the media only. */
const root = mkdtempSync(path.join(tmpdir(), 'parley-media-backup-'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

async function run(config: Config, ...argv: string[]) {
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const status = await runCli(argv, io, config);
  return { status, output: lines.join('\n') };
}

describe('backup with PostgreSQL', () => {
  it('without --media-only, says how to pg_dump and writes no half backup', async () => {
    const dir = path.join(root, 'refused');
    const pgConfig = { ...t.config, databaseUrl: 'postgres://nobody@127.0.0.1:1/none' };
    const res = await run(pgConfig, 'backup', dir);
    expect(res.status).toBe(1);
    expect(res.output).toContain('pg_dump');
    expect(res.output).toContain('--media-only');
    expect(existsSync(path.join(dir, MANIFEST))).toBe(false);
  });

  it('--media-only copies the files the database refers to; restore brings them back', async () => {
    const seat = await createSeat(t, 'media-backup');
    const photo = await uploaded(t, seat.token, 'image', 'photo.jpg');
    const dir = path.join(root, 'media-only');
    const made = await run(t.config, 'backup', dir, '--media-only');
    expect(made.status, made.output).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest;
    expect(manifest.kind).toBe('media-only');
    expect(manifest.database).toBeNull();
    const row = await t.db
      .selectFrom('media')
      .select(['sha256', 'thumb_sha256'])
      .where('media_id', '=', photo.media_id)
      .executeTakeFirstOrThrow();
    const shas = manifest.media.map((m) => m.sha256);
    expect(shas).toContain(row.sha256);
    expect(shas).toContain(row.thumb_sha256);

    const mediaDir = path.join(root, 'restored-media');
    const back = await run({ ...t.config, mediaDir }, 'restore', dir);
    expect(back.status, back.output).toBe(0);
    expect(back.output).toContain('pg_restore');
    expect(existsSync(path.join(mediaDir, row.sha256.slice(0, 2), row.sha256))).toBe(true);
  });
});
