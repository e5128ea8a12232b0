import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migratorOf } from '../src/db/migrate.js';
import { cliOk } from './server-process.js';

/**
 * One PostgreSQL database, one schema per install (docs/deploy.md): one chosen with
 * PARLEY_PG_SCHEMA, one through the search_path of DATABASE_URL, and one in the default
 * schema. PostgreSQL only (vitest.config.ts leaves it out of the SQLite project); a database
 * of its own on the test server.
 */
const adminUrl = process.env.PARLEY_TEST_DATABASE_URL!;
const dbName = `parley_schemas_${randomBytes(4).toString('hex')}`;
const databaseUrl = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
const dirs: string[] = [];
const apps: FastifyInstance[] = [];

async function admin<R extends pg.QueryResultRow>(url: string, text: string, values?: unknown[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** An install as an operator configures one: its environment, the CLI, the server. */
async function install(vars: Record<string, string>, seat: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-schemas-'));
  dirs.push(dataDir);
  const env = { PARLEY_DATA_DIR: dataDir, PARLEY_DEMO: 'off', LOG_LEVEL: 'silent', ...vars };
  const app = await buildApp(loadConfig(env));
  apps.push(app);
  await cliOk(env, 'seat:create', seat, '--password', 'correct-horse-1');
  const login = (account: string) =>
    app
      .inject({
        method: 'POST',
        url: '/v1/seat/chat/login',
        payload: { account, password: 'correct-horse-1' },
      })
      .then((res) => JSON.parse(res.body) as { code: string });
  return { app, login };
}

async function tablesIn(schema: string): Promise<string[]> {
  const rows = await admin<{ table_name: string }>(
    databaseUrl,
    `select table_name from information_schema.tables where table_schema = $1
      and table_name in ('seats', 'kysely_migration', 'kysely_migration_lock') order by 1`,
    [schema],
  );
  return rows.map((r) => r.table_name);
}

beforeAll(async () => {
  await admin(adminUrl, `create database ${dbName}`);
});
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await admin(adminUrl, `drop database if exists ${dbName} with (force)`);
});

describe('one schema per install in one PostgreSQL database', () => {
  it('migrates and serves each install in its own schema, the data kept apart', async () => {
    // The first install takes the default schema: Kysely's tables are there from now on.
    const first = await install({ DATABASE_URL: databaseUrl }, 'first-seat');
    // One names its schema (created for it).
    const alpha = await install(
      { DATABASE_URL: databaseUrl, PARLEY_PG_SCHEMA: 'alpha' },
      'alpha-seat',
    );
    // One chooses it through the connection's search_path (the schema made beforehand).
    await admin(databaseUrl, 'create schema bravo');
    const bravo = await install(
      { DATABASE_URL: `${databaseUrl}?options=${encodeURIComponent('-c search_path=bravo')}` },
      'bravo-seat',
    );

    expect(await tablesIn('public')).toEqual([
      'kysely_migration',
      'kysely_migration_lock',
      'seats',
    ]);
    expect(await tablesIn('alpha')).toEqual(['kysely_migration', 'kysely_migration_lock', 'seats']);
    expect(await tablesIn('bravo')).toEqual(['kysely_migration', 'kysely_migration_lock', 'seats']);
    // Each serves its own seats, and knows nothing of the others'.
    expect((await first.login('first-seat')).code).toBe('000000');
    expect((await alpha.login('alpha-seat')).code).toBe('000000');
    expect((await bravo.login('bravo-seat')).code).toBe('000000');
    expect((await first.login('alpha-seat')).code).toBe('200001');
    expect((await alpha.login('bravo-seat')).code).toBe('200001');
    expect((await bravo.login('first-seat')).code).toBe('200001');
  }, 60_000);

  it("starts while other installs' schemas are dropped: it reads its own schema only", async () => {
    const config = loadConfig({ DATABASE_URL: databaseUrl, PARLEY_PG_SCHEMA: 'charlie' });
    await (
      await install({ DATABASE_URL: databaseUrl, PARLEY_PG_SCHEMA: 'charlie' }, 'c-seat')
    ).app;
    const handle = await openDatabase(config);
    const churn = new pg.Client({ connectionString: databaseUrl });
    await churn.connect();
    let stop = false;
    // Other installs come and go: schemas with tables made and dropped, over and over.
    const churning = (async () => {
      for (let i = 0; !stop; i++) {
        await churn.query(`create schema gone_${i}; create table gone_${i}.seats (id int)`);
        await churn.query(`drop schema gone_${i} cascade`);
      }
    })();
    try {
      // What a start asks on its way (the migrator's "are my tables there?"), 150 times.
      for (let i = 0; i < 150; i++) {
        const migrations = await migratorOf(handle.db, 'pg', 'charlie').getMigrations();
        expect(migrations.every((m) => m.executedAt)).toBe(true);
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
      await handle.close();
    }
  }, 60_000);

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() =>
      loadConfig({ DATABASE_URL: databaseUrl, PARLEY_PG_SCHEMA: 'x; drop table seats' }),
    ).toThrow(/PARLEY_PG_SCHEMA/);
  });
});
