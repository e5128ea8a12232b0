import { CompiledQuery, type LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_WINDOW_MS } from '@parley/protocol';
import { buildApp } from '../src/app.js';
import { openDatabase, type DatabaseHandle, type Db } from '../src/db/database.js';
import { createServices, type Services } from '../src/services.js';
import { createChat, createSeat, type SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, usingPg, type TestApp } from './helper.js';

/**
 * The list cache's rule (docs/ARCHITECTURE.md, "The list cache's rule"): a cached list answer
 * (getGroupInfo, getGroupList: lib/list-cache.ts) is trusted while the seat's list version
 * stands, and only changes of the tables with a version trigger (migration 025) move it. So the
 * cached answers may read only those tables, the tables their triggers keep (group_counts and
 * session_hours follow sessions, migration 017) and the version table itself. A chat row given
 * a field of another table (an account label, an assignee) would be served stale: this check
 * fails instead, naming the table.
 *
 * How: the real services run over a connection that logs every query; each query the cached
 * answers ran is EXPLAINed (SQLite: the tables its OpenRead opcodes open; PostgreSQL: the plan's
 * relations), and the tables are compared with the triggers read from the schema.
 */
let t: TestApp;
let traced: DatabaseHandle;
let services: Services;
let cleanup: () => Promise<void>;
let seat: SeatFixture;
let recording: CompiledQuery[] | null = null;

beforeAll(async () => {
  const made = await createTestDatabaseConfig();
  cleanup = made.cleanup;
  const app = await buildApp(made.config);
  await app.ready();
  t = testAppOf(app, made.config);
  seat = await createSeat(t, 'tables-seat');
  const now = Date.now();
  // Chats in every place the lists show: both tabs, pinned, unread, waiting, another group.
  await createChat(t.db, seat, { latestTime: now - 1000, unread: 2, lastDirection: 'in' });
  await createChat(t.db, seat, { latestTime: now - 2000, isTop: true, lastDirection: 'out' });
  await createChat(t.db, seat, { latestTime: now - RECENT_WINDOW_MS - 5000, unread: 1 });
  await createChat(t.db, seat, { groupId: seat.groups.blocked, latestTime: now - 3000 });
  // A labelled chat (issue 35): the rows show their labels by name.
  const labelled = await createChat(t.db, seat, { latestTime: now - 4000 });
  const label = await t.services.labels.create({ name: 'VIP', color: 'green' });
  await t.services.labels.set(seat.seatId, {
    session_id: labelled.sessionId,
    label_ids: [label.label.label_id],
  });
  // A second, logging connection to the same database, with services of its own (a cold cache).
  traced = await openDatabase(made.config, {
    log: (event: LogEvent) => {
      if (event.level === 'query') recording?.push(event.query);
    },
  });
  services = await createServices(traced.db, made.config);
});
afterAll(async () => {
  await traced?.close();
  await t?.app.close();
  await cleanup?.();
});

/** Every query run by `work`. */
async function queriesOf(work: () => Promise<unknown>): Promise<CompiledQuery[]> {
  recording = [];
  try {
    await work();
    return recording;
  } finally {
    recording = null;
  }
}

/** The tables a query reads, from the database's own plan. */
async function tablesReadBy(db: Db, query: CompiledQuery): Promise<string[]> {
  const tables = new Set<string>();
  if (usingPg) {
    const plan = await db.executeQuery<{ 'QUERY PLAN': unknown }>(
      CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
    );
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'Relation Name' && typeof value === 'string') tables.add(value);
        else walk(value);
      }
    };
    walk(plan.rows[0]!['QUERY PLAN']);
  } else {
    const program = await db.executeQuery<{ opcode: string; p2: number; p3: number }>(
      CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
    );
    for (const op of program.rows) {
      // A virtual table (full-text search) is opened by VOpen, which does not name it.
      if (op.opcode === 'VOpen') throw new Error(`a virtual table is read by: ${query.sql}`);
      if (op.opcode !== 'OpenRead' || op.p3 !== 0) continue;
      const owner = await db.executeQuery<{ tbl_name: string }>(
        CompiledQuery.raw('select tbl_name from sqlite_master where rootpage = ?', [op.p2]),
      );
      tables.add(owner.rows[0]?.tbl_name ?? `rootpage ${op.p2}`);
    }
  }
  return [...tables];
}

/** The tables a trigger body (or trigger function) writes. */
function writtenBy(body: string): string[] {
  const found = [
    ...body.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)/gi),
  ]
    .map((m) => m[1]!.toLowerCase())
    .filter((name) => name !== 'set');
  return [...new Set(found)];
}

/**
 * The tables whose changes move the list version (a trigger writes seat_list_versions), those
 * their triggers keep up to date, and the version table: what a cached answer may read.
 */
async function coveredTables(db: Db): Promise<Set<string>> {
  let triggers: { table: string; body: string }[];
  if (usingPg) {
    const rows = await db.executeQuery<{ table: string; body: string }>(
      CompiledQuery.raw(`select c.relname as table, p.prosrc as body
        from pg_trigger t
        join pg_class c on c.oid = t.tgrelid
        join pg_proc p on p.oid = t.tgfoid
        where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace`),
    );
    triggers = rows.rows;
  } else {
    const rows = await db.executeQuery<{ table: string; body: string }>(
      CompiledQuery.raw(
        'select tbl_name as "table", sql as body from sqlite_master where type = \'trigger\'',
      ),
    );
    triggers = rows.rows;
  }
  const versioned = new Set(
    triggers
      .filter((tr) => writtenBy(tr.body).includes('seat_list_versions'))
      .map((tr) => tr.table),
  );
  const covered = new Set<string>(['seat_list_versions', ...versioned]);
  for (const tr of triggers) {
    if (versioned.has(tr.table)) for (const table of writtenBy(tr.body)) covered.add(table);
  }
  return covered;
}

/** The tables `queries` read whose changes do not move the list version. */
async function uncovered(db: Db, queries: CompiledQuery[]): Promise<string[]> {
  const covered = await coveredTables(db);
  const outside = new Set<string>();
  for (const query of queries) {
    for (const table of await tablesReadBy(db, query)) {
      if (!covered.has(table)) outside.add(table);
    }
  }
  return [...outside].sort();
}

/** The cached list answers, from a cold cache: every query that builds them runs. */
function cachedAnswers(
  of: { seatId: number; groups: { ungrouped: number; blocked: number } } = seat,
) {
  return queriesOf(async () => {
    for (const tab of [1, 2] as const) {
      for (const group_id of [of.groups.ungrouped, of.groups.blocked]) {
        for (const reply of [0, 1] as const) {
          await services.sessions.groupInfoAnswer(of.seatId, {
            group_id,
            reply,
            user_time_type: tab,
            page_size: 50,
          });
        }
      }
    }
    for (const reply of [0, 1] as const) await services.groups.listAnswer(of.seatId, { reply });
  });
}

describe("the list cache's rule: a cached answer reads only tables that move the version", () => {
  it('the version triggers are found: sessions and seat_groups, and what they keep', async () => {
    const covered = await coveredTables(traced.db);
    expect(covered).toContain('sessions');
    expect(covered).toContain('seat_groups');
    expect(covered).toContain('group_counts');
    // Labels (migration 047): a label put on or taken off, renamed or recoloured.
    expect(covered).toContain('chat_labels');
    expect(covered).toContain('labels');
  });

  it('getGroupInfo and getGroupList, as cached, read no table outside them', async () => {
    const queries = await cachedAnswers();
    // The answers were read (a version read and the data of each call).
    expect(queries.length).toBeGreaterThan(4);
    const read = new Set<string>();
    for (const q of queries) for (const table of await tablesReadBy(traced.db, q)) read.add(table);
    expect(read).toContain('sessions');
    // A muted chat's mark reaches the rows through mutedChats and session.muted, not the
    // cached answers: chat_mutes (no version trigger) is read by none of them.
    expect(read).not.toContain('chat_mutes');
    // The rows' labels are read with them, from tables whose changes move the version.
    expect(read).toContain('chat_labels');
    expect(read).toContain('labels');
    expect(await uncovered(traced.db, queries)).toEqual([]);
  });

  it("fails when a chat row takes a field of a table without a trigger (the account's label)", async () => {
    const [page] = await queriesOf(() =>
      traced.db
        .selectFrom('sessions')
        .innerJoin('phone_accounts', 'phone_accounts.send_phone', 'sessions.send_phone')
        .select(['sessions.id', 'sessions.latest_time', 'phone_accounts.label'])
        .where('sessions.seat_id', '=', seat.seatId)
        .execute(),
    );
    expect(await uncovered(traced.db, [page!])).toEqual(['phone_accounts']);
    // A join to a table with a trigger passes.
    const [grouped] = await queriesOf(() =>
      traced.db
        .selectFrom('sessions')
        .innerJoin('seat_groups', 'seat_groups.id', 'sessions.group_id')
        .select(['sessions.id', 'seat_groups.name'])
        .where('sessions.seat_id', '=', seat.seatId)
        .execute(),
    );
    expect(await uncovered(traced.db, [grouped!])).toEqual([]);
  });
});

/**
 * Team accounts (issue 35; docs/decisions/2026-11-29-team-accounts.md): a chat's assignee is
 * its sessions.seat_id, and "queued" is its seat being the team's queue seat, so a member's
 * lists and the queue's are the same cached answers over the same tables; the membership that
 * decides what a member may see (team_members) moves its seat's version too (migration 048).
 */
/** The chats of a cached getGroupInfo answer, as the console reads its text. */
const sessionIds = (answer: { body: string }) =>
  (
    JSON.parse(answer.body) as { data: { account_list: { session_id: number }[] } }
  ).data.account_list.map((c) => c.session_id);

describe("the list cache's rule for team accounts: assignee and queue state", () => {
  let member: SeatFixture;
  let queueSeat: { seatId: number; groups: { ungrouped: number; blocked: number } };
  let held: number;
  let queued: number;

  const version = async (seatId: number) =>
    Number(
      (
        await t.db
          .selectFrom('seat_list_versions')
          .select('version')
          .where('seat_id', '=', seatId)
          .executeTakeFirst()
      )?.version ?? 0,
    );

  beforeAll(async () => {
    member = await createSeat(t, 'tables-member');
    const phone = member.phones[0]!;
    const account = await t.db
      .selectFrom('phone_accounts')
      .select('id')
      .where('send_phone', '=', phone)
      .executeTakeFirstOrThrow();
    const made = await t.services.teams.set({
      account_id: account.id,
      routing: 'manual',
      capacity: 5,
      member_ids: [member.seatId, seat.seatId],
    });
    const queueSeatId = (
      await t.db
        .selectFrom('team_accounts')
        .select('queue_seat_id')
        .where('account_id', '=', made.team.account_id)
        .executeTakeFirstOrThrow()
    ).queue_seat_id;
    const groups = await t.db
      .selectFrom('seat_groups')
      .select(['id', 'type'])
      .where('seat_id', '=', queueSeatId)
      .execute();
    queueSeat = {
      seatId: queueSeatId,
      groups: {
        ungrouped: groups.find((g) => g.type === 'ungrouped')!.id,
        blocked: groups.find((g) => g.type === 'blocked')!.id,
      },
    };
    const write = async (receiverPhone: string) => {
      const r = await t.services.messages.receive({
        sendPhone: phone,
        receiverPhone,
        content: 'hi',
      });
      if ('blocked' in r) throw new Error('blocked');
      return r.sessionId;
    };
    held = await write('+447700900101');
    queued = await write('+447700900102');
    await t.services.teams.take(member.seatId, { session_id: held });
  });

  it('team_members moves the list version: a seat added to or removed from a team sees its version move', async () => {
    expect(await coveredTables(traced.db)).toContain('team_members');
    const account = await t.db
      .selectFrom('team_members')
      .select('account_id')
      .where('seat_id', '=', member.seatId)
      .executeTakeFirstOrThrow();
    const before = await version(seat.seatId);
    await t.services.teams.set({
      account_id: account.account_id,
      routing: 'manual',
      capacity: 5,
      member_ids: [member.seatId],
    });
    const removed = await version(seat.seatId);
    expect(removed).toBeGreaterThan(before);
    await t.services.teams.set({
      account_id: account.account_id,
      routing: 'manual',
      capacity: 5,
      member_ids: [member.seatId, seat.seatId],
    });
    expect(await version(seat.seatId)).toBeGreaterThan(removed);
  });

  it("a member's cached lists (its assigned chats) and the queue's read no table outside the covered ones", async () => {
    const mine = await cachedAnswers(member);
    const queue = await cachedAnswers(queueSeat);
    expect(await uncovered(traced.db, [...mine, ...queue])).toEqual([]);
    // What they show: the assigned chat in the member's list, the waiting one in the queue's.
    const list = async (of: typeof queueSeat) =>
      sessionIds(
        await services.sessions.groupInfoAnswer(of.seatId, {
          group_id: of.groups.ungrouped,
          reply: 0,
          user_time_type: 1,
          page_size: 50,
        }),
      );
    expect(await list(member)).toContain(held);
    expect(await list(queueSeat)).toContain(queued);
    expect(await list(queueSeat)).not.toContain(held);
  });

  it('a take moves both versions, so the cached lists show the new assignee and queue at once', async () => {
    const q0 = await version(queueSeat.seatId);
    const m0 = await version(member.seatId);
    await t.services.teams.take(member.seatId, { session_id: queued });
    expect(await version(queueSeat.seatId)).toBeGreaterThan(q0);
    expect(await version(member.seatId)).toBeGreaterThan(m0);
    const answer = await services.sessions.groupInfoAnswer(member.seatId, {
      group_id: member.groups.ungrouped,
      reply: 0,
      user_time_type: 1,
      page_size: 50,
    });
    expect(sessionIds(answer)).toContain(queued);
  });
});
