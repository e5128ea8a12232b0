import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { inTransaction } from '../src/lib/tx.js';
import { createTestDatabaseConfig } from './helper.js';

/**
 * The embedded database shared by two processes (the server and the admin CLI, or two
 * instances): a transaction that read before the other process wrote must still commit. With
 * SQLite's default deferred transactions its first write was answered "database is locked" at
 * once (seen as `chat:receive` failing beside a busy server).
 */
const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Another process: opens the file, says "ready", and on a line of input writes one row. */
function otherProcess(file: string) {
  const code = `
    const db = new (require('better-sqlite3'))(process.argv[1]);
    db.pragma('busy_timeout = 5000');
    process.stdout.write('ready\\n');
    process.stdin.once('data', () => {
      db.prepare("insert into server_settings (key, value, created_at) values ('other', 'x', 1)").run();
      process.stdout.write('written\\n');
      process.exit(0);
    });`;
  const child = spawn(process.execPath, ['-e', code, file], { cwd: SERVER_DIR });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const seen = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (out.includes(word) ? resolve() : undefined);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        check();
      });
      child.on('exit', () => (out.includes(word) ? resolve() : reject(new Error(err))));
    });
  const ready = seen('ready');
  const written = seen('written');
  return { ready, written, write: () => child.stdin.write('go\n') };
}

describe('the SQLite file shared with another process', () => {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  let file: string;

  beforeAll(async () => {
    const made = await createTestDatabaseConfig();
    cleanup = made.cleanup;
    file = path.join(made.config.dataDir, 'parley.db');
    handle = await openDatabase(made.config);
  });

  afterAll(async () => {
    await handle.close();
    await cleanup();
  });

  it('a transaction that read before the other process wrote still commits; both rows land', async () => {
    const other = otherProcess(file);
    await other.ready;
    await inTransaction(handle.db, async (trx) => {
      await trx.selectFrom('server_settings').select('key').execute();
      other.write();
      // Time for the other process to write (or to start waiting for the lock).
      await new Promise((resolve) => setTimeout(resolve, 300));
      await trx
        .insertInto('server_settings')
        .values({ key: 'ours', value: 'y', created_at: 1 })
        .execute();
    });
    await other.written;
    const keys = await handle.db.selectFrom('server_settings').select('key').execute();
    expect(keys.map((k) => k.key)).toEqual(expect.arrayContaining(['ours', 'other']));
  });
});
