import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type KyselyConfig,
  type SqliteDatabase,
  type SqliteDialectConfig,
  sql,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from './schema.js';
import { migrateToLatest } from './migrate.js';
import { PreparingClient } from './prepared.js';

export type DialectName = 'sqlite' | 'pg';
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  /** True for the embedded SQLite file. */
  embedded: boolean;
  /** The SQLite file; null on PostgreSQL. */
  file: string | null;
  /** SQLite: the server's one connection (its temporary triggers, lib/sqlite-list-changes.ts). */
  sqlite: SQLite.Database | null;
  /** The PostgreSQL pool's connections now (metrics); null on SQLite. */
  poolStats: (() => { total: number; idle: number; waiting: number }) | null;
  /**
   * PostgreSQL: `listener` hears of each idle connection that broke (the pool drops it); SQLite
   * has none.
   */
  onConnectionError(listener: (err: Error) => void): void;
  close(): Promise<void>;
}

// int8 (counts, sums, bigint times) as numbers: epoch ms stay far below 2^53.
pg.types.setTypeParser(20, Number);

/** The engine behind a Kysely instance (or transaction). */
export function dialectOf(db: Db): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'pg' : 'sqlite';
}

export interface OpenOptions {
  /** Every query run (the list cache's table check, test/list-cache-tables.test.ts). */
  log?: KyselyConfig['log'];
}

export async function openDatabase(
  config: Config,
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  let db: Db;
  let dialect: DialectName;
  let file: string | null = null;
  let raw: SQLite.Database | null = null;
  let poolStats: DatabaseHandle['poolStats'] = null;
  let connectionErrorListener: (err: Error) => void = () => undefined;
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.pgPoolMax,
      Client: PreparingClient,
      ...(config.pgSchema ? { options: `-c search_path=${config.pgSchema}` } : {}),
    });
    // An idle connection that broke (PostgreSQL stopped, the backend terminated) is dropped by
    // the pool, which then emits 'error': unheard, that would end the process.
    pool.on('error', (err) => connectionErrorListener(err));
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: options.log });
    dialect = 'pg';
    poolStats = () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    });
  } else {
    file = sqliteFile(config);
    ownerOnly(config.dataDir, file);
    const sqlite = new SQLite(file);
    raw = sqlite;
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    ownFunctions(sqlite);
    db = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
      log: options.log,
    });
    dialect = 'sqlite';
  }
  try {
    await migrateToLatest(db, dialect, dialect === 'pg' ? await schemaOf(db, config) : null);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return {
    db,
    dialect,
    embedded: dialect === 'sqlite',
    file,
    sqlite: raw,
    poolStats,
    onConnectionError: (listener) => {
      connectionErrorListener = listener;
    },
    close: () => db.destroy(),
  };
}

/**
 * The schema that holds this install's tables, Kysely's own included: PARLEY_PG_SCHEMA, else
 * the first of the connection's search_path that exists (set in DATABASE_URL's `options` or
 * on the role). Named to Kysely: left to itself it looks for its tables in every schema, finds
 * another install's, and then cannot read them through this search_path.
 */
async function schemaOf(db: Db, config: Config): Promise<string> {
  if (config.pgSchema) return config.pgSchema;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  );
  const schema = rows[0]?.schema;
  if (!schema) {
    throw new Error(
      "no schema of the connection's search_path exists: create it, or set PARLEY_PG_SCHEMA",
    );
  }
  return schema;
}

/** The functions every connection to the embedded database has. */
function ownFunctions(sqlite: SQLite.Database) {
  // SQLite's own lower() folds ASCII only; keyword filters (remarks, numbers) need Unicode.
  sqlite.function('lower', { deterministic: true }, (v: unknown) =>
    typeof v === 'string' ? v.toLowerCase() : v,
  );
}

/**
 * A read-only connection to the embedded database of a running server, for a worker thread
 * (the exports': worker-export-reader.ts). WAL lets it read beside the server's writes; it
 * never writes, so it never waits for the write lock, and never migrates.
 */
export function openSqliteReader(file: string): Db {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  ownFunctions(sqlite);
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
}

/** Where the embedded database lives (the backup command reads it too). */
export function sqliteFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'parley.db');
}

/** Prepared statements kept per SQL text (the queries are few; a bound keeps it so). */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely's SQLite driver prepares every query again; compiling the SQL took more time than
 * running the list queries. The same text gets the same prepared statement (better-sqlite3
 * statements are reusable, and the one connection runs one query at a time).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        stmt = sqlite.prepare(sql);
        cache.set(sql, stmt);
      }
      return stmt as unknown as ReturnType<SqliteDatabase['prepare']>;
    },
  };
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
