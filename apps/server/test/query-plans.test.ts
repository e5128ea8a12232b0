import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.js';
import type { Database } from '../src/db/schema.js';
import { auditRepository } from '../src/modules/admin/admin.repository.js';
import { adminViewsRepository } from '../src/modules/admin/admin-views.repository.js';
import { adminStatsRepository } from '../src/modules/admin/admin-stats.repository.js';
import { bucketsOf } from '../src/lib/time-zone.js';
import { batchesRepository } from '../src/modules/batches/batches.repository.js';
import { groupsRepository } from '../src/modules/groups/groups.repository.js';
import { messagesRepository } from '../src/modules/messages/messages.repository.js';
import { sessionsRepository } from '../src/modules/sessions/sessions.repository.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';

/**
 * The list queries must be answered from their indexes, not by scanning: each test runs a
 * repository query on a connection that records the SQL, then asks the engine for its plan
 * (PostgreSQL with sequential scans discouraged, since its tables are tiny here and it would
 * otherwise always prefer a scan).
 */
let t: TestApp;
let explain: (query: CompiledQuery) => Promise<string>;
let logged: Db;
let captured: CompiledQuery[] = [];
let close: () => Promise<void>;

beforeAll(async () => {
  t = await createTestApp();
  const log = (event: { level: string; query: CompiledQuery }) => {
    if (event.level === 'query') captured.push(event.query);
  };
  if (usingPg) {
    const client = new pg.Client({
      connectionString: t.config.databaseUrl!,
      options: `-c search_path=${t.config.pgSchema}`,
    });
    await client.connect();
    await client.query('set enable_seqscan = off');
    const pool = new pg.Pool({
      connectionString: t.config.databaseUrl!,
      options: `-c search_path=${t.config.pgSchema}`,
      max: 1,
    });
    logged = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    explain = async (q) => {
      const res = await client.query<{ 'QUERY PLAN': string }>(
        `explain ${q.sql}`,
        q.parameters as unknown[],
      );
      return res.rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    close = async () => {
      await logged.destroy();
      await client.end();
    };
  } else {
    const file = path.join(t.config.dataDir, 'parley.db');
    const sqlite = new SQLite(file);
    logged = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SQLite(file) }),
      log,
    });
    explain = async (q) =>
      sqlite
        .prepare(`explain query plan ${q.sql}`)
        .all(...(q.parameters as unknown[]))
        .map((r) => (r as { detail: string }).detail)
        .join('\n');
    close = async () => {
      await logged.destroy();
      sqlite.close();
    };
  }
});
afterAll(async () => {
  await close?.();
  await t?.close();
});

async function planOf(run: (db: Db) => Promise<unknown>): Promise<string> {
  captured = [];
  await run(logged);
  expect(captured).toHaveLength(1);
  return explain(captured[0]!);
}

describe('query plans', () => {
  it('the user list seeks to the keyset cursor in sessions_list_idx', async () => {
    const plan = await planOf((db) =>
      sessionsRepository.page(
        db,
        { seatId: 1, groupId: 1, userTimeType: 1, recentSince: 0, waitingOnly: false },
        { isTop: 0, latestTime: 1_700_000_000_000, id: 500 },
        51,
      ),
    );
    expect(plan).toContain('sessions_list_idx');
    // Pinned and other chats are read one after the other, each seeking to the cursor.
    if (usingPg) expect(plan).toMatch(/Index Cond:.*ROW\(latest_time, id\) < ROW/);
    else expect(plan).toMatch(/is_top=\? AND latest_time>\? AND latest_time<\?/);
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it("the group list (groups and last 24 hours) reads the kept counts and hours, and the boundary hour's unread chats", async () => {
    const plan = await planOf((db) =>
      groupsRepository.listWithRecentUnread(db, 1, 1_700_000_000_000),
    );
    expect(plan).toMatch(/session_hours_pk|sqlite_autoindex_session_hours/);
    expect(plan).toContain('sessions_unread_time_idx');
    expect(plan).not.toMatch(/SCAN sessions|Seq Scan on sessions|SCAN session_hours/);
  });

  it("the user list's total reads the kept hours and seeks the boundary hour", async () => {
    for (const waitingOnly of [false, true]) {
      const plan = await planOf((db) =>
        sessionsRepository.groupWithTotal(db, {
          seatId: 1,
          groupId: 1,
          userTimeType: 1,
          recentSince: 1_700_000_000_000,
          waitingOnly,
        }),
      );
      expect(plan).toMatch(/session_hours_pk|sqlite_autoindex_session_hours/);
      // PostgreSQL picks among the seat's indexes by cost on these tiny tables: none scans.
      if (!usingPg) expect(plan).toContain('sessions_list_idx');
      expect(plan).not.toMatch(/SCAN sessions|Seq Scan on sessions|SCAN session_hours/);
    }
  });

  it("the earlier tab's first page seeks past the recent chats instead of walking them", async () => {
    const plan = await planOf((db) =>
      sessionsRepository.page(
        db,
        {
          seatId: 1,
          groupId: 1,
          userTimeType: 2,
          recentSince: 1_700_000_000_000,
          waitingOnly: false,
        },
        { isTop: 0, latestTime: 1_600_000_000_000, id: 500 },
        51,
      ),
    );
    expect(plan).toContain('sessions_list_idx');
    if (usingPg) expect(plan).toMatch(/Index Cond:.*ROW\(latest_time, id\) < ROW/);
    else expect(plan).toMatch(/is_top=\? AND latest_time<\?/);
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it('a chat is found by its two numbers without an index of its own that every message rewrites', async () => {
    // The pair is unique across the platform: sessions_phones_uq finds the one row. (On these
    // empty tables PostgreSQL's pick among the seat's indexes is arbitrary: SQLite's plan only.)
    const plan = await planOf((db) =>
      sessionsRepository.findByPhones(db, 1, '+15550100001', '+15550200001'),
    );
    expect(plan).not.toMatch(/SCAN sessions\b(?! USING)|Seq Scan on sessions/);
    if (!usingPg) expect(plan).toContain('sqlite_autoindex_sessions_1');
    const indexes = usingPg
      ? (
          await sql<{ name: string }>`select indexname as name from pg_indexes
            where tablename = 'sessions' and schemaname = current_schema()`.execute(t.db)
        ).rows
      : (await sql<{ name: string }>`select name from pragma_index_list('sessions')`.execute(t.db))
          .rows;
    expect(indexes.map((i) => i.name)).not.toContain('sessions_seat_phones_idx');
  });

  it("a chat's pages use messages_session_idx in both directions", async () => {
    for (const run of [
      (db: Db) => messagesRepository.pageBefore(db, 7, 1000, 51),
      (db: Db) => messagesRepository.pageBefore(db, 7, undefined, 51),
      (db: Db) => messagesRepository.pageAfter(db, 7, 1000, 51),
      (db: Db) => messagesRepository.latestShown(db, 7),
    ]) {
      const plan = await planOf(run);
      expect(plan).toContain('messages_session_idx');
      expect(plan).not.toMatch(/TEMP B-TREE|messages_pkey/);
    }
  });

  it('batch reply: status, claims and the due seat read their indexes', async () => {
    const cases: [(db: Db) => Promise<unknown>, RegExp][] = [
      [
        (db) => batchesRepository.findByClientId(db, 1, 'web_batch_1'),
        /batches_seat_batch_uq|sqlite_autoindex_batches/,
      ],
      [(db) => batchesRepository.itemsOf(db, 3), /batch_items_batch_idx/],
      [(db) => batchesRepository.claimNext(db, 1, 1_000, 2_000), /batch_items_claim_idx/],
      [(db) => batchesRepository.nextDueSeat(db), /batches_done_idx/],
    ];
    for (const [run, index] of cases) {
      const plan = await planOf(run);
      expect(plan).toMatch(index);
      expect(plan).not.toMatch(/SCAN batch_items|SCAN b\b|Seq Scan on batch(es|_items)/);
    }
  });

  it("the administrator's lists seek their keyset in an index, never sort a whole table", async () => {
    const cases: [string, (db: Db) => Promise<unknown>, RegExp][] = [
      [
        'seats',
        (db) => adminViewsRepository.seatsPage(db, { status: 'all' }, 'seat-100', 51),
        /seats_account|sqlite_autoindex_seats/,
      ],
      [
        'accounts',
        (db) => adminViewsRepository.accountsPage(db, { unassigned: false }, '+1555', 51),
        /phone_accounts_(send_phone|pkey)|sqlite_autoindex_phone_accounts/,
      ],
      [
        'failed deliveries',
        (db) => adminViewsRepository.outboxPage(db, { status: 'failed' }, 1000, 51),
        /outbox_status_idx/,
      ],
      [
        'audit log',
        (db) => auditRepository.page(db, {}, 1000, 51),
        /audit_log_pkey|INTEGER PRIMARY KEY/,
      ],
      [
        "one administrator's actions",
        (db) => auditRepository.page(db, { actor: 'admin' }, 1000, 51),
        /audit_log_actor_idx/,
      ],
    ];
    for (const [name, run, index] of cases) {
      const plan = await planOf(run);
      expect(plan, name).toMatch(index);
      expect(plan, name).not.toMatch(/SCAN (seats|phone_accounts|outbox|audit_log)\b|Seq Scan/);
      // PostgreSQL weighs a bitmap scan and a sort against the index's order by cost on these
      // tiny tables; SQLite's plan is the one a large table gets.
      if (!usingPg) expect(plan, name).not.toContain('TEMP B-TREE');
    }
  });

  it("the owner's chart series read each bucket's range from an index, for all seats and one", async () => {
    const month = bucketsOf('Asia/Kolkata', '2026-01-01', '2026-01-30');
    const byTime = /messages_created_idx/;
    const cases: [string, (db: Db) => Promise<unknown>, RegExp][] = [];
    for (const seat of [null, 1]) {
      cases.push(
        [`messages ${seat}`, (db) => adminStatsRepository.messages(db, month, seat), byTime],
        [
          `waits ${seat}`,
          (db) => adminStatsRepository.waits(db, month, seat),
          /chat_turns_time_idx/,
        ],
        [
          `translation ${seat}`,
          (db) => adminStatsRepository.translation(db, month, seat),
          /translation_slots_(pk|seat_idx)|sqlite_autoindex_translation_slots/,
        ],
        [
          `waiting now ${seat}`,
          (db) => adminStatsRepository.waitingNow(db, seat),
          /group_counts_(pkey|seat_idx)|INTEGER PRIMARY KEY/,
        ],
      );
    }
    cases.push(
      [
        'busiest hours',
        (db) => adminStatsRepository.quarterHours(db, 1, month[0]!.start, month[29]!.end),
        byTime,
      ],
      [
        'longest waits',
        (db) => adminStatsRepository.waitingLongest(db, 1, 10),
        /sessions_list_idx|sessions_book_idx/,
      ],
    );
    // The per-seat export over a range: a batch of seats, each figure one grouped query.
    const [from, until] = [month[0]!.start, month[29]!.end];
    cases.push(
      [
        'export seats',
        (db) => adminStatsRepository.seatsAfter(db, 0, 200),
        /seats_pkey|PRIMARY KEY/,
      ],
      [
        'export messages',
        (db) => adminStatsRepository.seatMessages(db, [1, 2], from, until),
        byTime,
      ],
      [
        'export responses',
        (db) => adminStatsRepository.seatResponses(db, [1, 2], from, until),
        /chat_turns_time_idx/,
      ],
      [
        'export translation',
        (db) => adminStatsRepository.seatTranslation(db, [1, 2], from, until),
        /translation_slots_(pk|seat_idx)|sqlite_autoindex_translation_slots/,
      ],
      [
        'export waiting now',
        (db) => adminStatsRepository.seatsWaitingNow(db, [1, 2]),
        /group_counts_(pkey|seat_idx)|INTEGER PRIMARY KEY/,
      ],
    );
    for (const [name, run, index] of cases) {
      const plan = await planOf(run);
      expect(plan, name).toMatch(index);
      // seat_groups (a few rows a seat) is the only table read whole, as for the overview.
      expect(plan, name).not.toMatch(
        /\bSCAN (m|s|t|p|o|w|messages|sessions|translation_slots|chat_turns)\b|Seq Scan/,
      );
      // The plan a large table gets: each bucket's range by time, never every message or turn
      // compared with every bucket (PostgreSQL: a join filter on the buckets' bounds).
      if (!usingPg && /^(messages|busiest|export messages)/.test(name)) {
        expect(plan, name).toMatch(byTime);
      }
      if (/^(messages|waits|translation)/.test(name)) {
        expect(plan, name).toMatch(/[( ](created_at|slot) ?>/);
        expect(plan, name).not.toMatch(/Join Filter: \(\((m|t)\.(created_at|slot) >= /);
      }
    }
  });
});
