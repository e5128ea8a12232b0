import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS, type StatsSeries } from '@parley/protocol';
import type { NewMessage } from '../src/db/schema.js';
import { migratorOf } from '../src/db/migrate.js';
import { messagesRepository } from '../src/modules/messages/messages.repository.js';
import { sessionsRepository } from '../src/modules/sessions/sessions.repository.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';
import { adminCall, createAdmin } from './admin-helpers.js';
import { platformAt, platformPost } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';

/**
 * The charts' waits and first responses come from the chats' turns, kept by triggers as
 * messages are written (migration 034) instead of replayed from every message of a range. These
 * check that every way a message is written keeps them: the platform's webhook and the
 * operator's send, two transactions writing to one chat at once, messages written before the
 * migration (its backfill), and a chat deleted.
 */
let t: TestApp;
let token: string;
let seat: SeatFixture;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const MIN = 60_000;

beforeAll(async () => {
  receiver = await startReceiver('test-platform-secret');
  t = await createTestApp({ platform: platformAt(receiver.url) });
  token = await createAdmin(t, 'turns-admin');
  seat = await createSeat(t, 'turns-seat');
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

async function series(body: Record<string, unknown>): Promise<StatsSeries> {
  const answer = await adminCall(t, '/v1/admin/stats/series', body, token);
  expect(answer.code, answer.raw).toBe('000000');
  return answer.data;
}
/** The sums of a series' buckets (a fixture's day holds only it). */
async function totals(day: string) {
  const s = await series({ time_zone: 'UTC', from: day, to: day, seat_id: seat.seatId });
  const answered = s.buckets.filter((b) => b.first_responses > 0);
  return {
    in: s.buckets.reduce((n, b) => n + b.messages_in, 0),
    out: s.buckets.reduce((n, b) => n + b.messages_out, 0),
    firstResponses: answered.reduce((n, b) => n + b.first_responses, 0),
    medians: answered.map((b) => b.first_response_median_ms),
  };
}

/** A chat of the seat with no messages yet (its row as a fixture writes it). */
async function emptyChat(at: number) {
  const receiverPhone = nextPhone('+4479');
  const ids = await sessionsRepository.insertMany(t.db, [
    {
      seat_id: seat.seatId,
      send_phone: seat.phones[0]!,
      receiver_phone: receiverPhone,
      group_id: seat.groups.ungrouped,
      prev_group_id: null,
      is_top: 0,
      remark: '',
      un_read_count: 0,
      add_time: at,
      latest_time: at,
      last_direction: null,
      last_preview: null,
      last_type: null,
      customer_language: null,
      blocked: 0,
    },
  ]);
  return ids.get(`${seat.phones[0]}|${receiverPhone}`)!;
}
const message = (sessionId: number, direction: 'in' | 'out', at: number): NewMessage => ({
  session_id: sessionId,
  seat_id: seat.seatId,
  client_msg_id: null,
  direction,
  type: 'text',
  content: 'x',
  media: null,
  status: 'read',
  created_at: at,
  deleted_for_me: 0,
  deleted_for_all: 0,
});
const turnsOf = (sessionId: number) =>
  t.db
    .selectFrom('chat_turns')
    .select(['direction', 'created_at', 'started_at'])
    .where('session_id', '=', sessionId)
    .orderBy('seq')
    .execute();

describe("the chats' turns, kept as messages are written", () => {
  it("a customer's messages through the webhook and the operator's replies through the API make one wait and its first response", async () => {
    const customer = nextPhone('+4481');
    let n = 0;
    const customerWrites = async () => {
      const res = await platformPost(
        t,
        PLATFORM_PATHS.message,
        JSON.stringify({
          id: `turns-in-${++n}`,
          account: seat.phones[0],
          customer,
          type: 'text',
          content: 'hello?',
        }),
      );
      expect(res.code, res.raw).toBe('000000');
    };
    const operatorReplies = async () => {
      const res = await t.call(
        '/v1/seat/chat/message',
        {
          send_phone: seat.phones[0]!,
          receiver_phone: customer,
          type: 'text',
          content: 'here',
          client_msg_id: `turns-out-${++n}`,
        },
        seat.token,
      );
      expect(res.code, res.raw).toBe('000000');
    };
    await customerWrites();
    await customerWrites();
    await operatorReplies();
    await operatorReplies();
    await customerWrites();

    const stored = await t.db
      .selectFrom('messages')
      .innerJoin('sessions', 'sessions.id', 'messages.session_id')
      .select(['messages.direction', 'messages.created_at'])
      .where('sessions.receiver_phone', '=', customer)
      .orderBy('messages.id')
      .execute();
    expect(stored.map((m) => m.direction)).toEqual(['in', 'in', 'out', 'out', 'in']);
    const day = new Date(stored[0]!.created_at).toISOString().slice(0, 10);
    // Only this chat writes today's messages of the seat (unless the test crossed midnight).
    if (new Date(stored[4]!.created_at).toISOString().slice(0, 10) !== day) return;
    expect(await totals(day)).toEqual({
      in: 3,
      out: 2,
      firstResponses: 1,
      medians: [stored[2]!.created_at - stored[0]!.created_at],
    });
    // The chat waits again: counted in the hour of the customer's last message, and since.
    const today = await series({ time_zone: 'UTC', from: day, to: day, seat_id: seat.seatId });
    const hour = new Date(stored[4]!.created_at).getUTCHours();
    expect(today.buckets[hour]!.waiting).toBe(1);
  });

  it.runIf(usingPg)(
    'two transactions writing to one chat at once count its wait once, and the reply ends it (PostgreSQL)',
    async () => {
      const at = Date.parse('2026-02-10T09:00:00Z');
      const chat = await emptyChat(at);
      const connect = async () => {
        const c = new pg.Client({
          connectionString: t.config.databaseUrl!,
          options: `-c search_path=${t.config.pgSchema}`,
        });
        await c.connect();
        return c;
      };
      const [a, b] = [await connect(), await connect()];
      const insert = (c: pg.Client, direction: 'in' | 'out', when: number) =>
        c.query(
          `insert into messages (session_id, seat_id, direction, type, content, status,
             created_at, deleted_for_me, deleted_for_all)
           values ($1, $2, $3, 'text', 'x', 'read', $4, 0, 0)`,
          [chat, seat.seatId, direction, when],
        );
      try {
        await a.query('begin');
        await b.query('begin');
        await insert(a, 'in', at);
        // B's customer message waits for A's chat; it then sees A's wait begun.
        let bDone = false;
        const bInsert = insert(b, 'in', at + MIN).then(() => (bDone = true));
        await new Promise((r) => setTimeout(r, 300));
        expect(bDone).toBe(false);
        await a.query('commit');
        await bInsert;
        await b.query('commit');

        // An operator's reply racing a customer's message: whichever commits first, the
        // turns alternate and the reply is timed from the wait's first message.
        await a.query('begin');
        await b.query('begin');
        await insert(a, 'out', at + 10 * MIN);
        const racing = insert(b, 'in', at + 11 * MIN);
        await new Promise((r) => setTimeout(r, 100));
        await a.query('commit');
        await racing;
        await b.query('commit');
      } finally {
        await a.end();
        await b.end();
      }
      expect(await turnsOf(chat)).toEqual([
        { direction: 'in', created_at: at, started_at: null },
        { direction: 'out', created_at: at + 10 * MIN, started_at: at },
        { direction: 'in', created_at: at + 11 * MIN, started_at: null },
      ]);
      expect(await totals('2026-02-10')).toEqual({
        in: 3,
        out: 1,
        firstResponses: 1,
        medians: [10 * MIN],
      });
    },
  );

  it('a chat deleted takes its turns with it', async () => {
    const at = Date.parse('2026-02-11T09:00:00Z');
    const chat = await emptyChat(at);
    await messagesRepository.insertMany(t.db, [
      message(chat, 'in', at),
      message(chat, 'out', at + MIN),
    ]);
    expect(await turnsOf(chat)).toHaveLength(2);
    expect(await sessionsRepository.delete(t.db, seat.seatId, chat)).toBe(1);
    expect(await turnsOf(chat)).toEqual([]);
  });
});

describe('migration 034', () => {
  it('backfills the turns of the messages written before it, and goes back and up again', async () => {
    const { db, dialect } = t.app.parley.database;
    const migrator = migratorOf(db, dialect, t.config.pgSchema);
    expect((await migrator.migrateTo('031-translation-slots')).error).toBeUndefined();
    const at = Date.parse('2026-02-12T09:00:00Z');
    const chat = await emptyChat(at);
    // Two waits: answered after 5 and 20 minutes; the chat waits again at the day's end.
    await messagesRepository.insertMany(t.db, [
      message(chat, 'out', at - MIN),
      message(chat, 'in', at),
      message(chat, 'in', at + MIN),
      message(chat, 'out', at + 5 * MIN),
      message(chat, 'in', at + 60 * MIN),
      message(chat, 'out', at + 80 * MIN),
      message(chat, 'out', at + 81 * MIN),
      message(chat, 'in', at + 120 * MIN),
    ]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await turnsOf(chat)).toEqual([
      { direction: 'in', created_at: at, started_at: null },
      { direction: 'out', created_at: at + 5 * MIN, started_at: at },
      { direction: 'in', created_at: at + 60 * MIN, started_at: null },
      { direction: 'out', created_at: at + 80 * MIN, started_at: at + 60 * MIN },
      { direction: 'in', created_at: at + 120 * MIN, started_at: null },
    ]);
    expect(await totals('2026-02-12')).toEqual({
      in: 4,
      out: 4,
      firstResponses: 2,
      medians: [5 * MIN, 20 * MIN],
    });
  });
});
