import type { CompiledQuery, LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_WINDOW_MS, type CallRequest } from '@parley/protocol';
import { buildApp } from '../src/app.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { createServices, type Services } from '../src/services.js';
import {
  PageInOneReader,
  VersionThenPageReader,
  readGroupInfo,
  type ChatListReader,
} from '../src/modules/sessions/chat-list-reader.js';
import { KnownVersions } from '../src/lib/known-versions.js';
import { SerializedAnswer } from '../src/lib/list-cache.js';
import { MediaUrls } from '../src/modules/media/media-urls.js';
import { createChat, createGroup, createSeat, type SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, usingPg, type TestApp } from './helper.js';

/**
 * getGroupInfo after a change of the seat's chats (a cache miss) costs, on PostgreSQL, one
 * statement: the list version, the group's total and the page are one read (issue 25: a miss
 * was four round trips, most of its server CPU). Its answers are the multi-statement reader's,
 * page by page, in every place the lists show.
 */
let t: TestApp;
let traced: DatabaseHandle;
let services: Services;
let cleanup: () => Promise<void>;
let seat: SeatFixture;
let custom: number;
let recording: CompiledQuery[] | null = null;

type Input = CallRequest<'/v1/seat/chat/getGroupInfo'>;

beforeAll(async () => {
  const made = await createTestDatabaseConfig();
  cleanup = made.cleanup;
  const app = await buildApp(made.config);
  await app.ready();
  t = testAppOf(app, made.config);
  seat = await createSeat(t, 'statements-seat');
  custom = await createGroup(t, seat, 'Leads');
  const now = Date.now();
  // Both tabs, pinned on both, unread, waiting or answered, chats sharing a latest_time (the
  // keyset's tie-break), and a second group.
  for (let i = 0; i < 14; i++) {
    const recent = i % 2 === 0;
    await createChat(t.db, seat, {
      latestTime: recent ? now - 1000 * (i % 5) : now - RECENT_WINDOW_MS - 60_000 * (i % 4),
      isTop: i % 6 === 0 || i === 5,
      unread: i % 3,
      lastDirection: i % 4 === 0 ? 'out' : 'in',
    });
  }
  for (let i = 0; i < 3; i++) {
    await createChat(t.db, seat, { groupId: custom, latestTime: now - 5000 * i });
  }
  // A second connection to the same database that logs every statement, with its own services.
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

async function statementsOf(work: () => Promise<unknown>): Promise<CompiledQuery[]> {
  recording = [];
  try {
    await work();
    return recording;
  } finally {
    recording = null;
  }
}

const answerOf = async (input: Input) =>
  JSON.parse((await services.sessions.groupInfoAnswer(seat.seatId, input)).body) as {
    code: string;
    data: Awaited<ReturnType<Services['sessions']['groupInfo']>>;
  };

/** Any change of the seat's chats moves its list version: the next reads are misses. */
let changes = 0;
async function changeAChat(): Promise<void> {
  changes += 1;
  await t.db
    .updateTable('sessions')
    .set({ remark: `changed ${changes}` })
    .where('seat_id', '=', seat.seatId)
    .where('group_id', '=', custom)
    .execute();
}

describe('getGroupInfo, as cached', () => {
  it('answers what the multi-statement read answers, page by page, everywhere', async () => {
    for (const group_id of [seat.groups.ungrouped, custom, seat.groups.blocked]) {
      for (const user_time_type of [1, 2] as const) {
        for (const reply of [0, 1] as const) {
          let cursor: string | undefined;
          let pages = 0;
          do {
            const input: Input = { group_id, user_time_type, reply, page_size: 2, cursor };
            const { code, data } = await answerOf(input);
            expect(code).toBe('000000');
            expect(data).toEqual(await services.sessions.groupInfo(seat.seatId, input));
            cursor = data.next_cursor ?? undefined;
            pages += 1;
          } while (cursor && pages < 20);
        }
      }
    }
  });

  it('every reader this database can run answers the bytes of the whole read (the seam)', async () => {
    const urls = new MediaUrls('a-media-url-secret-of-at-least-32-characters');
    // The statement that reads page, total and version at once is PostgreSQL's own.
    const readers: ChatListReader[] = [new VersionThenPageReader(t.db, urls, new KnownVersions())];
    if (usingPg) readers.push(new PageInOneReader(t.db, urls, new KnownVersions()));
    for (const group_id of [seat.groups.ungrouped, custom]) {
      for (const user_time_type of [1, 2] as const) {
        let cursor: string | undefined;
        let pages = 0;
        do {
          const input: Input = { group_id, user_time_type, reply: 0, page_size: 3, cursor };
          const now = Date.now();
          const whole = await readGroupInfo(t.db, urls, seat.seatId, input, now);
          for (const reader of readers) {
            // Twice: a miss, then the held bytes of the same version.
            for (let i = 0; i < 2; i++) {
              const body = (await reader.answer(seat.seatId, input)).body;
              expect(body).toBe(SerializedAnswer.of(whole).body);
            }
          }
          cursor = whole.next_cursor ?? undefined;
          pages += 1;
        } while (cursor && pages < 20);
      }
    }
  });

  it('answers 400001 for a group that is not the seat’s', async () => {
    const res = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: 999_999, user_time_type: 1 },
      seat.token,
    );
    expect(res.code).toBe('400001');
  });

  it.runIf(usingPg)('is one statement on PostgreSQL after a change (a miss)', async () => {
    const input: Input = {
      group_id: seat.groups.ungrouped,
      user_time_type: 1,
      reply: 0,
      page_size: 3,
    };
    await answerOf(input);
    await changeAChat();
    let answer: Awaited<ReturnType<typeof answerOf>> | undefined;
    const miss = await statementsOf(async () => {
      answer = await answerOf(input);
    });
    expect(miss.length).toBe(1);
    expect(answer!.data).toEqual(await services.sessions.groupInfo(seat.seatId, input));

    // A later page (its cursor in the unpinned side), after another change: one statement too.
    const next: Input = { ...input, cursor: answer!.data.next_cursor! };
    await changeAChat();
    const later = await statementsOf(() => answerOf(next));
    expect(later.length).toBe(1);
    // Unchanged since: the held bytes, for at most the statement that reads the version (the
    // chats of its page are not read then: a gate PostgreSQL decides before the scans).
    let held: Awaited<ReturnType<typeof answerOf>> | undefined;
    const unchanged = await statementsOf(async () => {
      held = await answerOf(next);
    });
    expect(unchanged.length).toBeLessThanOrEqual(1);
    expect(held!.data).toEqual(await services.sessions.groupInfo(seat.seatId, next));
  });
});
