import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { UPLOAD_PATH } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST, type Manifest } from '../src/backup/backup.js';
import { createTestApp, type TestApp } from './helper.js';
import {
  cli,
  cliOk,
  post,
  seatWithChat,
  startServer,
  type ServerProcess,
} from './server-process.js';

/**
 * `parley backup` while the built server takes a stream of messages and uploads in another
 * process, then `parley restore` into a fresh data directory and the app started on it.
 * SQLite only (on PostgreSQL the database is pg_dump's: backup-media-only.test.ts).
 */
const root = mkdtempSync(path.join(tmpdir(), 'parley-backup-'));
const env = { PARLEY_DATA_DIR: path.join(root, 'live'), PARLEY_DEMO: 'off' };
const backupDir = path.join(root, 'backup');
let server: ServerProcess;
let restored: TestApp | null = null;

beforeAll(async () => {
  server = await startServer(env);
});
afterAll(async () => {
  await server?.stop();
  await restored?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Acked {
  msgId: number;
  mediaId: string | null;
  at: number;
}

/** Sends messages (every fourth a freshly uploaded file) until told to stop. */
function writer(chat: { token: string; phone: string; customer: string }) {
  const acked: Acked[] = [];
  let stopped = false;
  let n = 0;
  const run = (async () => {
    while (!stopped) {
      n += 1;
      let mediaId: string | null = null;
      if (n % 4 === 0) {
        const form = new FormData();
        form.set('kind', 'file');
        const bytes = `note ${n} ${Math.random()}\n`.repeat(200);
        form.set('file', new Blob([bytes], { type: 'text/plain' }), `note-${n}.txt`);
        const res = await fetch(server.base + UPLOAD_PATH, {
          method: 'POST',
          headers: { authorization: chat.token },
          body: form,
        });
        const up = (await res.json()) as { code: string; data: { media_id: string } };
        expect(up.code).toBe('000000');
        mediaId = up.data.media_id;
      }
      const sent = await post(
        server.base,
        '/v1/seat/chat/message',
        {
          send_phone: chat.phone,
          receiver_phone: chat.customer,
          type: mediaId ? 'file' : 'text',
          ...(mediaId ? { media_id: mediaId } : { content: `message ${n}` }),
          client_msg_id: `backup-stream-${n}`,
        },
        chat.token,
      );
      expect(sent.code, JSON.stringify(sent)).toBe('000000');
      acked.push({ msgId: sent.data.msg_id, mediaId, at: Date.now() });
    }
  })();
  return {
    acked,
    stop: async () => {
      stopped = true;
      await run;
    },
  };
}

describe('backup and restore on SQLite', () => {
  it('backs up under a stream of writes; the restore has every message acknowledged before, untorn', async () => {
    const chat = await seatWithChat(env, server.base, 'backup-op', '+15550300001', '+447700900301');
    const stream = writer(chat);
    // A history to copy (and to be copying while the writes go on).
    while (stream.acked.length < 60) await new Promise((r) => setTimeout(r, 20));

    const before = new Set(stream.acked.map((a) => a.msgId));
    const began = Date.now();
    const made = await cli(env, 'backup', backupDir);
    const ended = Date.now();
    await stream.stop();
    expect(made.status, made.output).toBe(0);
    expect(made.output).toContain('Backed up the database');
    // The writes really went on while the backup ran.
    expect(stream.acked.some((a) => a.at > began && a.at < ended)).toBe(true);

    const manifest = JSON.parse(readFileSync(path.join(backupDir, MANIFEST), 'utf8')) as Manifest;
    expect(manifest).toMatchObject({ format: 1, kind: 'sqlite', database: { file: 'parley.db' } });
    expect(manifest.schema).toMatch(/^\d{3}-/);
    expect(manifest.counts.messages).toBeGreaterThanOrEqual(before.size);
    expect(manifest.media.length).toBe(manifest.counts.media);
    expect(manifest.media.length).toBeGreaterThan(0);

    // Restore into a fresh data directory and start the app on it.
    const freshEnv = { PARLEY_DATA_DIR: path.join(root, 'restored'), PARLEY_DEMO: 'off' };
    await cliOk(freshEnv, 'restore', backupDir);
    const file = path.join(freshEnv.PARLEY_DATA_DIR, 'parley.db');
    const check = new SQLite(file, { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      check.close();
    }
    restored = await createTestApp({
      dataDir: freshEnv.PARLEY_DATA_DIR,
      mediaDir: path.join(freshEnv.PARLEY_DATA_DIR, 'media'),
      databaseUrl: null,
      pgSchema: null,
    });
    const ids = (await restored.db.selectFrom('messages').select('id').execute()).map((r) => r.id);
    const have = new Set(ids);
    const lost = [...before].filter((id) => !have.has(id));
    expect(lost).toEqual([]);
    // Every media row's file is there, and so is each file message's media.
    const media = await restored.db.selectFrom('media').select(['sha256', 'media_id']).execute();
    for (const m of media) {
      const stored = path.join(restored.config.mediaDir, m.sha256.slice(0, 2), m.sha256);
      expect(existsSync(stored), m.media_id).toBe(true);
    }
    const mediaIds = new Set(media.map((m) => m.media_id));
    for (const a of stream.acked.filter((x) => before.has(x.msgId) && x.mediaId)) {
      expect(mediaIds.has(a.mediaId!)).toBe(true);
    }
    // The operator can log in and read the chat on the restored copy.
    const login = await restored.call('/v1/seat/chat/login', {
      account: 'backup-op',
      password: 'correct-horse-1',
    });
    expect(login.code).toBe('000000');
  });

  it('a second backup into the same directory copies only the new media files', async () => {
    const some = JSON.parse(readFileSync(path.join(backupDir, MANIFEST), 'utf8')) as Manifest;
    const sha = some.media[0]!.sha256;
    const first = path.join(backupDir, 'media', sha.slice(0, 2), sha);
    // An old time stamp: were the file copied again, it would be now.
    utimesSync(first, new Date(2020, 0, 1), new Date(2020, 0, 1));
    const { mtimeMs } = statSync(first);
    await cliOk(env, 'backup', backupDir);
    expect(statSync(first).mtimeMs).toBe(mtimeMs);
    const again = JSON.parse(readFileSync(path.join(backupDir, MANIFEST), 'utf8')) as Manifest;
    expect(again.media.map((m) => m.sha256)).toEqual(expect.arrayContaining([sha]));
  });

  it('refuses to restore over a data directory in use, and a backup whose files do not match', async () => {
    const used = await cli(env, 'restore', backupDir);
    expect(used.status).toBe(1);
    expect(used.output).toMatch(/not empty.*--force/);

    const copyEnv = { PARLEY_DATA_DIR: path.join(root, 'tampered-target'), PARLEY_DEMO: 'off' };
    const manifest = JSON.parse(readFileSync(path.join(backupDir, MANIFEST), 'utf8')) as Manifest;
    const victim = manifest.media[0]!.sha256;
    const file = path.join(backupDir, 'media', victim.slice(0, 2), victim);
    const original = readFileSync(file);
    writeFileSync(file, Buffer.concat([original, Buffer.from('x')]));
    try {
      const bad = await cli(copyEnv, 'restore', backupDir);
      expect(bad.status).toBe(1);
      expect(bad.output).toContain(victim);
      // Nothing was written.
      expect(existsSync(path.join(copyEnv.PARLEY_DATA_DIR, 'parley.db'))).toBe(false);
    } finally {
      writeFileSync(file, original);
    }
    // --force overwrites (the first test's restored copy, its app stopped first).
    await restored?.close();
    restored = null;
    const target = { PARLEY_DATA_DIR: path.join(root, 'restored'), PARLEY_DEMO: 'off' };
    expect((await cli(target, 'restore', backupDir)).status).toBe(1);
    await cliOk(target, 'restore', backupDir, '--force');
  });
});
