import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type SqliteDialectConfig,
} from 'kysely';
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
  /** PostgreSQL: the pool's connections and the requests waiting for one (null on SQLite). */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  close(): Promise<void>;
}

// int8 (counts, sums, bigint times) as numbers: epoch ms stay far below 2^53.
pg.types.setTypeParser(20, Number);

export async function openDatabase(config: Config): Promise<DatabaseHandle> {
  let db: Db;
  let dialect: DialectName;
  let pool: pg.Pool | null = null;
  if (config.databaseUrl) {
    pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.pgPoolMax,
      ...(config.pgSchema ? { options: `-c search_path=${config.pgSchema}` } : {}),
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    dialect = 'pg';
  } else {
    const file = path.join(config.dataDir, 'parley.db');
    ownerOnly(config.dataDir, file);
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    // SQLite's own lower() folds ASCII only; keyword filters (remarks, numbers) need Unicode.
    sqlite.function('lower', { deterministic: true }, (v: unknown) =>
      typeof v === 'string' ? v.toLowerCase() : v,
    );
    db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
    dialect = 'sqlite';
  }
  try {
    await migrateToLatest(db, dialect, dialect === 'pg' ? config.pgSchema : null);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const poolStats = () =>
    pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
  return { db, dialect, embedded: dialect === 'sqlite', poolStats, close: () => db.destroy() };
}

/**
 * Transactions on SQLite take the write lock when they begin (`begin immediate`). A deferred
 * transaction that read before another process (a second instance, the admin CLI) committed a
 * write cannot take the lock later: SQLite answers "database is locked" at once, without
 * waiting out busy_timeout. Taken at the start, the lock is waited for like any other.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/**
 * The database holds Telegram bot tokens and the media signing secret: its directory and file
 * are for the server's user alone (0700 / 0600), set on every start so an older install is
 * mended too. SQLite gives its -wal and -shm files the database file's mode.
 */
function ownerOnly(dir: string, file: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}
