import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, createSeat } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { messagesRepository } from '../src/modules/messages/messages.repository.js';

// PostgreSQL only (vitest.config.ts leaves it out of the SQLite project: one connection there).
// More than the old pool of 10, few enough to leave connections to the test files running beside.
const REQUESTS = 20;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
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
});
