import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, createSeat } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { valueOf } from './prometheus.js';
import { messagesRepository } from '../src/modules/messages/messages.repository.js';
import { inTransaction } from '../src/lib/tx.js';
import { DEFAULT_PG_POOL_MAX } from '../src/config.js';

// PostgreSQL only (vitest.config.ts leaves it out of the SQLite project: one connection there).
// More than the old pool of 10, few enough to leave connections to the test files running beside.
const REQUESTS = 20;

let t: TestApp;
beforeAll(async () => {
  // The production pool (other tests run on a smaller one: helper.ts's TEST_PG_POOL_MAX).
  t = await createTestApp({ pgPoolMax: DEFAULT_PG_POOL_MAX });
});
afterAll(() => t?.close());

describe('the PostgreSQL connection pool', () => {
  it('gives each of 20 requests waiting on the database a connection of its own', async () => {
    const seat = await createSeat(t, 'pool');
    const chat = await createChat(t.db, seat, {});
    // Holds every reader of `messages` in the database until it lets go.
    const blocker = new pg.Client({
      connectionString: t.config.databaseUrl!,
      options: `-c search_path=${t.config.pgSchema}`,
    });
    await blocker.connect();
    let blocked = 0;
    let answers;
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE messages IN ACCESS EXCLUSIVE MODE');
      const calls = Array.from({ length: REQUESTS }, () =>
        t.call(
          '/v1/seat/chat/getChatRecord',
          { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone },
          seat.token,
        ),
      );
      // A request that has a connection reaches the lock and waits there, in the database. One
      // without waits in the server's pool, where (under load) each connection serves one
      // query per turn of the event loop: the 1,000-operator cliff of the pool of 10.
      // Patience, not a time limit: opening connections is slow on a busy machine.
      for (let i = 0; i < 600 && blocked < REQUESTS; i++) {
        await sleep(50);
        // pg_stat_activity is read once per transaction unless its snapshot is cleared: the
        // blocker's transaction would otherwise never see the connections opened later.
        await blocker.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await blocker.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))',
        );
        blocked = rows[0]!.n;
      }
      await blocker.query('ROLLBACK');
      answers = await Promise.all(calls);
    } finally {
      await blocker.end();
    }
    expect(blocked).toBe(REQUESTS);
    expect(answers.map((a) => a.code)).toEqual(Array(REQUESTS).fill('000000'));
  }, 60_000);

  it('keeps the batch statement of sends prepared on each connection, parsed once', async () => {
    await t.db.connection().execute(async (conn) => {
      await messagesRepository.sendTexts(conn, [], []);
      await messagesRepository.sendTexts(conn, [], []);
      const { rows } = await sql<{ statement: string }>`select statement
        from pg_prepared_statements where name like 'parley_%'`.execute(conn);
      expect(rows.filter((r) => r.statement.includes('jsonb_to_recordset'))).toHaveLength(1);
    });
  });

  it("a batch of sends waiting on a locked chat holds back other chats' sends only for a moment", async () => {
    const seat = await createSeat(t, 'stalled-batch');
    const locked = await createChat(t.db, seat, {});
    const other = await createChat(t.db, seat, {});
    const send = (chat: typeof locked, id: string) =>
      t.call(
        '/v1/seat/chat/message',
        {
          send_phone: chat.sendPhone,
          receiver_phone: chat.receiverPhone,
          type: 'text',
          content: id,
          client_msg_id: id,
        },
        seat.token,
      );
    const blocker = new pg.Client({
      connectionString: t.config.databaseUrl!,
      options: `-c search_path=${t.config.pgSchema}`,
    });
    await blocker.connect();
    try {
      // Another transaction holds the chat (an operator's longer change, say).
      await blocker.query('BEGIN');
      await blocker.query('SELECT id FROM sessions WHERE id = $1 FOR UPDATE', [locked.sessionId]);
      const first = send(locked, 'stalled-1');
      let waiting = 0;
      for (let i = 0; i < 600 && waiting === 0; i++) {
        await sleep(20);
        await blocker.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await blocker.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))',
        );
        waiting = rows[0]!.n;
      }
      expect(waiting).toBe(1);
      // One send alone is below the size a second batch waits for; it goes all the same once
      // the batch in flight is seen stalled, and is answered while that chat is still held.
      const second = await Promise.race([send(other, 'stalled-2'), sleep(10_000, 'held back')]);
      expect(second).toMatchObject({ code: '000000', data: { content: 'stalled-2' } });
      await blocker.query('ROLLBACK');
      expect(await first).toMatchObject({ code: '000000', data: { content: 'stalled-1' } });
    } finally {
      await blocker.end();
    }
  }, 60_000);

  it('prepares a query run a few times, once per connection, and plans it once', async () => {
    const seat = await createSeat(t, 'prepared');
    await t.db.connection().execute(async (conn) => {
      const read = () =>
        conn.selectFrom('seats').select(['id', 'account']).where('id', '=', seat.seatId).execute();
      for (let i = 0; i < 12; i++)
        expect(await read()).toEqual([{ id: seat.seatId, account: 'prepared' }]);
      const { rows } = await sql<{ n: number; generic: number }>`select count(*)::int as n,
          coalesce(max(generic_plans), 0)::int as generic
        from pg_prepared_statements
        where name like 'parley_%' and statement like 'select "id", "account" from "seats"%'`.execute(
        conn,
      );
      // Parsed once; PostgreSQL moved to its generic plan after its first custom ones.
      expect(rows[0]).toMatchObject({ n: 1 });
      expect(rows[0]!.generic).toBeGreaterThan(0);
    });
  });

  it('runs a prepared query again after a newer instance adds a column to its table', async () => {
    const seat = await createSeat(t, 'migrated');
    const other = new pg.Client({
      connectionString: t.config.databaseUrl!,
      options: `-c search_path=${t.config.pgSchema}`,
    });
    await other.connect();
    try {
      await t.db.connection().execute(async (conn) => {
        const read = () =>
          conn.selectFrom('seats').selectAll().where('id', '=', seat.seatId).executeTakeFirst();
        for (let i = 0; i < 5; i++) expect(await read()).toMatchObject({ account: 'migrated' });
        // What a migration of the next version does while this instance still serves.
        await other.query('ALTER TABLE seats ADD COLUMN prepared_probe integer');
        // Alone: prepared again and answered.
        expect(await read()).toMatchObject({ account: 'migrated', prepared_probe: null });
        await other.query('ALTER TABLE seats DROP COLUMN prepared_probe');
        // In a transaction, which the refusal ends: the transaction runs again.
        const inTx = await inTransaction(conn, async (trx) =>
          trx.selectFrom('seats').selectAll().where('id', '=', seat.seatId).executeTakeFirst(),
        );
        expect(inTx).toMatchObject({ account: 'migrated' });
        expect(inTx).not.toHaveProperty('prepared_probe');
      });
    } finally {
      await other.query('ALTER TABLE seats DROP COLUMN IF EXISTS prepared_probe');
      await other.end();
    }
  });
});

describe('the pool gauge', () => {
  it('counts no request waiting for a connection on an idle server', async () => {
    const token = 'pool-metrics-token-0123456789';
    const m = await createTestApp({
      ops: { metricsToken: token, shutdownTimeoutMs: 10_000, shutdownGraceMs: 0 },
    });
    try {
      const scrape = async () => {
        const res = await m.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode).toBe(200);
        return res.body;
      };
      // Nothing else runs: the scrape's own queries (the outbox backlog) must not count.
      for (let i = 0; i < 5; i++) {
        const text = await scrape();
        expect(valueOf(text, 'parley_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
        expect(valueOf(text, 'parley_db_pool_connections', { state: 'waiting' })).toBe(0);
      }
    } finally {
      await m.close();
    }
  });
});
