import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from './schema.js';
import { migrateToLatest } from './migrate.js';

export type DialectName = 'sqlite' | 'pg';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  /** True for the embedded SQLite file. */
  embedded: boolean;
  close(): Promise<void>;
}

// int8 (counts, sums, bigint times) as numbers: epoch ms stay far below 2^53.
pg.types.setTypeParser(20, Number);

export async function openDatabase(config: Config): Promise<DatabaseHandle> {
  let db: Db;
  let dialect: DialectName;
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      ...(config.pgSchema ? { options: `-c search_path=${config.pgSchema}` } : {}),
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    dialect = 'pg';
  } else {
    mkdirSync(config.dataDir, { recursive: true });
    const sqlite = new SQLite(path.join(config.dataDir, 'parley.db'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    // SQLite's own lower() folds ASCII only; keyword filters (remarks, numbers) need Unicode.
    sqlite.function('lower', { deterministic: true }, (v: unknown) =>
      typeof v === 'string' ? v.toLowerCase() : v,
    );
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    dialect = 'sqlite';
  }
  try {
    await migrateToLatest(db, dialect, dialect === 'pg' ? config.pgSchema : null);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, dialect, embedded: dialect === 'sqlite', close: () => db.destroy() };
}
