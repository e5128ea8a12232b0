import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsSeries } from '@parley/protocol';
import type { NewMessage } from '../src/db/schema.js';
import { messagesRepository } from '../src/modules/messages/messages.repository.js';
import { sessionsRepository } from '../src/modules/sessions/sessions.repository.js';
import { createChat, createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { LocalLibreTranslate } from './engine-servers.js';
import { adminCall, createAdmin } from './admin-helpers.js';

/**
 * The owner's charts against hand-counted chats with fixed times: a day in Asia/Kolkata
 * (+05:30, its hours begin at :30 UTC) and days of America/New_York crossing daylight saving
 * time (a 23-hour day in March, a 25-hour one in November). Each fixture is on days of its own,
 * so the all-seats series of those days hold only it.
 */
let t: TestApp;
let token: string;
let libre: LocalLibreTranslate;
let kolkata: SeatFixture;
let newYork: SeatFixture;
let live: SeatFixture;
let glossed: SeatFixture;

const MIN = 60_000;
const HOUR = 60 * MIN;
/** A wall-clock time of a zone at a fixed offset (minutes), as a UTC instant. */
const wall = (iso: string, offsetMin: number) => Date.parse(`${iso}Z`) - offsetMin * MIN;
const ist = (iso: string) => wall(iso, 330);

let customer = 0;
/** One chat of the seat with these messages (oldest first); its row as the server keeps it. */
async function chat(seat: SeatFixture, messages: ['in' | 'out', number][]) {
  const receiver = `+1777${String(process.pid % 1000).padStart(3, '0')}${String(++customer).padStart(4, '0')}`;
  const last = messages[messages.length - 1]!;
  const ids = await sessionsRepository.insertMany(t.db, [
    {
      seat_id: seat.seatId,
      send_phone: seat.phones[0]!,
      receiver_phone: receiver,
      group_id: seat.groups.ungrouped,
      prev_group_id: null,
      is_top: 0,
      remark: '',
      un_read_count: last[0] === 'in' ? 1 : 0,
      add_time: messages[0]![1],
      latest_time: last[1],
      last_direction: last[0],
      last_preview: 'x',
      last_type: 'text',
      customer_language: null,
      blocked: 0,
    },
  ]);
  const sessionId = ids.get(`${seat.phones[0]}|${receiver}`)!;
  await messagesRepository.insertMany(
    t.db,
    messages.map(([direction, at]): NewMessage => ({
      session_id: sessionId,
      seat_id: seat.seatId,
      client_msg_id: null,
      direction,
      type: 'text',
      content: 'words the owner never sees',
      media: null,
      status: 'read',
      created_at: at,
      deleted_for_me: 0,
      deleted_for_all: 0,
    })),
  );
}

async function slot(
  seat: SeatFixture,
  at: number,
  engine: string,
  characters: number,
  memory: number,
) {
  await t.db
    .insertInto('translation_slots')
    .values({ slot: at, seat_id: seat.seatId, engine, characters, memory_characters: memory })
    .execute();
}

/** Round trips (and flagged ones) of a seat's quarter hour, as round_trip_slots keeps them. */
async function roundTrips(
  seat: SeatFixture,
  at: number,
  backTranslations: number,
  flagged: number,
) {
  await t.db
    .insertInto('round_trip_slots')
    .values({ slot: at, seat_id: seat.seatId, back_translations: backTranslations, flagged })
    .execute();
}

beforeAll(async () => {
  libre = await new LocalLibreTranslate().start();
  t = await createTestApp({
    translation: {
      providers: [{ name: 'libretranslate', url: libre.url, apiKey: null }],
      timeoutMs: 5_000,
      retries: 0,
      retryDelayMs: 5,
    },
  });
  token = await createAdmin(t, 'stats-admin');
  kolkata = await createSeat(t, 'stats-kolkata');
  newYork = await createSeat(t, 'stats-new-york');
  live = await createSeat(t, 'stats-live');
  glossed = await createSeat(t, 'stats-glossed');

  // 2026-01-15 in Kolkata. Chat 1's customer wrote the evening before; it waits again from 10:20.
  await chat(kolkata, [
    ['in', ist('2026-01-14T23:50')],
    ['out', ist('2026-01-15T00:10')],
    ['in', ist('2026-01-15T09:05')],
    ['in', ist('2026-01-15T09:10')],
    ['out', ist('2026-01-15T09:35')],
    ['out', ist('2026-01-15T09:40')],
    ['in', ist('2026-01-15T10:20')],
  ]);
  // Answered at 11:00 sharp: still waiting at the end of the 10 o'clock hour.
  await chat(kolkata, [
    ['in', ist('2026-01-15T09:15')],
    ['out', ist('2026-01-15T09:25')],
    ['in', ist('2026-01-15T09:50')],
    ['out', ist('2026-01-15T11:00')],
  ]);
  await chat(kolkata, [
    ['in', ist('2026-01-15T09:20')],
    ['in', ist('2026-01-15T09:30')],
    ['out', ist('2026-01-15T09:45')],
  ]);
  // 08:45 and 09:15 local are one UTC hour (03:00-04:00 UTC), but two local hours.
  await slot(kolkata, ist('2026-01-15T08:45'), 'libretranslate', 7, 0);
  await slot(kolkata, ist('2026-01-15T09:15'), 'libretranslate', 100, 0);
  await slot(kolkata, ist('2026-01-15T09:45'), 'deepl', 50, 30);
  await roundTrips(kolkata, ist('2026-01-15T08:45'), 1, 1);
  await roundTrips(kolkata, ist('2026-01-15T09:15'), 2, 0);
  await roundTrips(kolkata, ist('2026-01-15T09:45'), 3, 1);

  // New York, 2026-03-08: clocks go from 02:00 EST (-05:00) to 03:00 EDT (-04:00).
  await chat(newYork, [
    ['in', wall('2026-03-08T01:30', -300)],
    ['out', wall('2026-03-08T03:10', -240)],
    ['in', wall('2026-03-08T23:30', -240)],
    ['out', wall('2026-03-09T00:10', -240)],
  ]);
  // 2026-11-01: back from 02:00 EDT to 01:00 EST; 01:30 comes twice.
  await chat(newYork, [
    ['in', wall('2026-11-01T01:30', -240)],
    ['out', wall('2026-11-01T01:30', -300)],
  ]);
});
afterAll(async () => {
  await t?.close();
  await libre?.stop();
});

async function series(body: Record<string, unknown>): Promise<StatsSeries> {
  const answer = await adminCall(t, '/v1/admin/stats/series', body, token);
  expect(answer.code, answer.raw).toBe('000000');
  return answer.data;
}
const column = <K extends keyof StatsSeries['buckets'][number]>(s: StatsSeries, key: K) =>
  s.buckets.map((b) => b[key]);
const only = (n: number, values: Record<number, unknown>, fill: unknown) =>
  Array.from({ length: n }, (_, i) => (i in values ? values[i] : fill));

describe('the series of a day in a half-hour zone (Asia/Kolkata)', () => {
  const day = { time_zone: 'Asia/Kolkata', from: '2026-01-15', to: '2026-01-15' };

  it('has 24 local hours from 18:30 UTC the day before', async () => {
    const s = await series({ ...day, seat_id: kolkata.seatId });
    expect(s.bucket).toBe('hour');
    expect(s.buckets).toHaveLength(24);
    expect(s.buckets[0]!.start).toBe(Date.parse('2026-01-14T18:30:00Z'));
    expect(s.buckets[23]!.end).toBe(Date.parse('2026-01-15T18:30:00Z'));
  });

  it('counts messages in and out per local hour', async () => {
    for (const seatId of [kolkata.seatId, undefined]) {
      const s = await series({ ...day, seat_id: seatId });
      expect(column(s, 'messages_in')).toEqual(only(24, { 9: 6, 10: 1 }, 0));
      expect(column(s, 'messages_out')).toEqual(only(24, { 0: 1, 9: 4, 11: 1 }, 0));
    }
  });

  it('counts the chats waiting at the end of each hour', async () => {
    const s = await series({ ...day, seat_id: kolkata.seatId });
    expect(column(s, 'waiting')).toEqual(
      only(24, { 9: 1, 10: 2, 11: 1 }, 0).map((v, i) => (i > 11 ? 1 : v)),
    );
  });

  it('takes the median and 90th percentile of first responses per hour, a wait begun the day before included', async () => {
    const s = await series({ ...day, seat_id: kolkata.seatId });
    expect(column(s, 'first_responses')).toEqual(only(24, { 0: 1, 9: 3, 11: 1 }, 0));
    // Hour 9: 10, 25 and 30 minutes.
    expect(column(s, 'first_response_median_ms')).toEqual(
      only(24, { 0: 20 * MIN, 9: 25 * MIN, 11: 70 * MIN }, null),
    );
    expect(column(s, 'first_response_p90_ms')).toEqual(
      only(24, { 0: 20 * MIN, 9: 30 * MIN, 11: 70 * MIN }, null),
    );
  });

  it('sums translation characters by engine and from memory per local hour', async () => {
    const s = await series({ ...day, seat_id: kolkata.seatId });
    expect(column(s, 'engine_characters')).toEqual(
      only(24, { 8: { libretranslate: 7 }, 9: { libretranslate: 100, deepl: 50 } }, {}),
    );
    expect(column(s, 'memory_characters')).toEqual(only(24, { 9: 30 }, 0));
  });

  it('counts back-translations and flagged round trips per local hour, a series of their own', async () => {
    for (const seatId of [kolkata.seatId, undefined]) {
      const s = await series({ ...day, seat_id: seatId });
      expect(column(s, 'back_translations')).toEqual(only(24, { 8: 1, 9: 5 }, 0));
      expect(column(s, 'flagged_round_trips')).toEqual(only(24, { 8: 1, 9: 1 }, 0));
    }
    // Another seat's series has none of them.
    const other = await series({ ...day, seat_id: newYork.seatId });
    expect(column(other, 'back_translations')).toEqual(only(24, {}, 0));
  });

  it('answers only the buckets ending after `since` (a live update)', async () => {
    const s = await series({ ...day, seat_id: kolkata.seatId, since: ist('2026-01-15T21:10') });
    expect(s.buckets.map((b) => b.start)).toEqual([
      ist('2026-01-15T21:00'),
      ist('2026-01-15T22:00'),
      ist('2026-01-15T23:00'),
    ]);
    expect(column(s, 'waiting')).toEqual([1, 1, 1]);
  });

  it('sums the days of a week, and a seat with nothing in them has zeros', async () => {
    const week = { time_zone: 'Asia/Kolkata', from: '2026-01-12', to: '2026-01-18' };
    const s = await series({ ...week, seat_id: kolkata.seatId });
    expect(s.bucket).toBe('day');
    expect(column(s, 'messages_in')).toEqual([0, 0, 1, 7, 0, 0, 0]);
    expect(column(s, 'messages_out')).toEqual([0, 0, 0, 6, 0, 0, 0]);
    expect(column(s, 'waiting')).toEqual([0, 0, 1, 1, 1, 1, 1]);
    expect(column(s, 'first_response_median_ms')).toEqual([
      null,
      null,
      null,
      25 * MIN,
      null,
      null,
      null,
    ]);
    // Five replies: 10, 20, 25, 30, 70 minutes; nearest rank 5 of 5.
    expect(column(s, 'first_response_p90_ms')).toEqual([
      null,
      null,
      null,
      70 * MIN,
      null,
      null,
      null,
    ]);
    const other = await series({ ...week, seat_id: newYork.seatId });
    expect(column(other, 'messages_in')).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it("gives a seat's busiest local hours and its longest waits, ages and counts only", async () => {
    const answer = await adminCall(
      t,
      '/v1/admin/stats/seat',
      { ...day, seat_id: kolkata.seatId },
      token,
    );
    expect(answer.code, answer.raw).toBe('000000');
    const hours = answer.data.busiest_hours.filter((h) => h.messages_in + h.messages_out > 0);
    expect(hours).toEqual([
      { hour: 0, messages_in: 0, messages_out: 1 },
      { hour: 9, messages_in: 6, messages_out: 4 },
      { hour: 10, messages_in: 1, messages_out: 0 },
      { hour: 11, messages_in: 0, messages_out: 1 },
    ]);
    expect(answer.data.waiting_longest).toEqual([
      { waiting_since: ist('2026-01-15T10:20'), unanswered: 1 },
    ]);
    expect(answer.raw).not.toContain('words the owner never sees');
  });
});

describe('days crossing daylight saving time (America/New_York)', () => {
  it('a spring-forward day has 23 hours, the hour after 01:00 EST being 03:00 EDT', async () => {
    const s = await series({
      time_zone: 'America/New_York',
      from: '2026-03-08',
      to: '2026-03-08',
      seat_id: newYork.seatId,
    });
    expect(s.buckets).toHaveLength(23);
    expect(s.buckets[0]!.start).toBe(Date.parse('2026-03-08T05:00:00Z'));
    expect(s.buckets[22]!.end).toBe(Date.parse('2026-03-09T04:00:00Z'));
    expect(column(s, 'messages_in')).toEqual(only(23, { 1: 1, 22: 1 }, 0));
    expect(column(s, 'messages_out')).toEqual(only(23, { 2: 1 }, 0));
    // 01:30 EST to 03:10 EDT is 40 minutes.
    expect(s.buckets[2]!.first_response_median_ms).toBe(40 * MIN);
    expect(column(s, 'waiting')).toEqual(only(23, { 1: 1, 22: 1 }, 0));
  });

  it('a fall-back day has 25 hours, and days are local days', async () => {
    const fall = await series({
      time_zone: 'America/New_York',
      from: '2026-11-01',
      to: '2026-11-01',
      seat_id: newYork.seatId,
    });
    expect(fall.buckets).toHaveLength(25);
    expect(column(fall, 'messages_in')).toEqual(only(25, { 1: 1 }, 0));
    expect(column(fall, 'messages_out')).toEqual(only(25, { 2: 1 }, 0));
    expect(fall.buckets[2]!.first_response_median_ms).toBe(HOUR);

    const week = await series({
      time_zone: 'America/New_York',
      from: '2026-03-06',
      to: '2026-03-10',
      seat_id: newYork.seatId,
    });
    expect(week.buckets.map((b) => (b.end - b.start) / HOUR)).toEqual([24, 24, 23, 24, 24]);
    // 23:30 EDT is the 8th; 00:10 EDT (04:10 UTC, 23:10 at the winter offset) is the 9th.
    expect(column(week, 'messages_in')).toEqual([0, 0, 2, 0, 0]);
    expect(column(week, 'messages_out')).toEqual([0, 0, 1, 1, 0]);
    expect(column(week, 'first_response_median_ms')).toEqual([
      null,
      null,
      40 * MIN,
      40 * MIN,
      null,
    ]);
  });
});

describe('live figures', () => {
  it("records a seat's translation characters in its quarter hour, from memory the second time", async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date());
    const day = { time_zone: 'UTC', from: today, to: today, seat_id: live.seatId };
    const text = 'Where is my parcel, please?';
    const translate = () =>
      t.call(
        '/v1/seat/chat/translate/text_v2',
        { texts: [text], source_lang: 'EN', target_lang: 'ES' },
        live.token,
      );
    expect((await translate()).code).toBe('000000');
    expect((await translate()).data.translations[0]!.from_memory).toBe(true);
    const s = await series(day);
    const sum = (f: (b: StatsSeries['buckets'][number]) => number) =>
      s.buckets.reduce((n, b) => n + f(b), 0);
    expect(sum((b) => b.engine_characters.libretranslate ?? 0)).toBe(text.length);
    expect(sum((b) => b.memory_characters)).toBe(text.length);
  });
});

describe('live round trips', () => {
  it('a preview’s back-translation moves the seat’s figures, a flagged one the flagged series too; a repeated preview counts once', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date());
    const day = { time_zone: 'UTC', from: today, to: today, seat_id: live.seatId };
    const chat = await createChat(t.db, live);
    const trip = (text: string) =>
      t.call(
        '/v1/seat/chat/translate/round_trip',
        { session_id: chat.sessionId, text, source_lang: 'EN', target_lang: 'ES' },
        live.token,
      );
    const totals = async () => {
      const s = await series(day);
      return [
        s.buckets.reduce((n, b) => n + b.back_translations, 0),
        s.buckets.reduce((n, b) => n + b.flagged_round_trips, 0),
      ];
    };
    expect(await totals()).toEqual([0, 0]);

    const plain = 'Your parcel leaves the warehouse today.';
    const first = await trip(plain);
    expect(first.data.back_translation).toMatchObject({ from_memory: false });
    expect(first.data.flags).toEqual([]);
    expect(await totals()).toEqual([1, 0]);

    // The engine adds a number to the translation: flagged, and counted as flagged.
    libre.breakNumbers(1);
    const broken = await trip('We refund the shipping cost.');
    expect(broken.data.flags).toContainEqual(
      expect.objectContaining({ kind: 'number', value: '10', change: 'added' }),
    );
    expect(await totals()).toEqual([2, 1]);

    // The same preview again: the memory answers it, and the figures do not move.
    const again = await trip(plain);
    expect(again.data.back_translation).toMatchObject({ from_memory: true });
    expect(await totals()).toEqual([2, 1]);
  });
});

describe('refusals', () => {
  const day = { time_zone: 'UTC', from: '2026-01-15', to: '2026-01-15' };
  it.each([
    ['an unknown time zone', { ...day, time_zone: 'Mars/Olympus' }, '100001'],
    ['no such day', { ...day, from: '2026-02-30', to: '2026-02-30' }, '100001'],
    ['a range ending before it starts', { ...day, from: '2026-01-16' }, '100001'],
    ['a range over 92 days', { ...day, from: '2025-10-01' }, '100001'],
    ['an unknown seat', { ...day, seat_id: 999_999 }, '400001'],
  ])('%s', async (_what, body, code) => {
    const answer = await adminCall(t, '/v1/admin/stats/series', body, token);
    expect(answer.code, answer.raw).toBe(code);
    expect(answer.msg).toBeTruthy();
  });
  it("refuses a seat's token", async () => {
    const answer = await adminCall(t, '/v1/admin/stats/series', day, kolkata.token);
    expect(answer.code).toBe('400002');
  });
});

/** RFC 4180 as a spreadsheet reads it: quoted cells may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') endCell();
    else if (ch === '\n') {
      endCell();
      rows.push(row);
      row = [];
    } else if (ch !== '\r') cell += ch;
  }
  return rows;
}

async function csv(
  path: string,
  query: Record<string, string | number>,
  auth: string | null = token,
) {
  const res = await t.app.inject({
    method: 'GET',
    url: `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
    headers: auth ? { authorization: `Bearer ${auth}` } : {},
  });
  return res;
}

describe('live glossary hits', () => {
  it("a translation that uses a glossary term moves the seat's glossary hits, in the series and its CSV, and no other seat's", async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date());
    const dayOf = (seat: SeatFixture) => ({
      time_zone: 'UTC',
      from: today,
      to: today,
      seat_id: seat.seatId,
    });
    const hits = async (seat: SeatFixture) =>
      (await series(dayOf(seat))).buckets.reduce((n, b) => n + b.glossary_hits, 0);
    const csvHits = async (seat: SeatFixture) => {
      const res = await csv('/v1/admin/export/series.csv', dayOf(seat));
      expect(res.statusCode).toBe(200);
      const [head, ...rows] = parseCsv(res.body);
      const at = head!.indexOf('glossary_hits');
      expect(at).toBeGreaterThan(-1);
      return rows.reduce((n, r) => n + Number(r[at]), 0);
    };
    const otherBefore = [await hits(live), await csvHits(live)];
    expect([await hits(glossed), await csvHits(glossed)]).toEqual([0, 0]);

    const added = await adminCall(
      t,
      '/v1/admin/glossary/add',
      { kind: 'keep', term: 'Orbit Lamp' },
      token,
    );
    expect(added.code, added.raw).toBe('000000');
    try {
      const res = await t.call(
        '/v1/seat/chat/translate/text_v2',
        {
          texts: ['Your Orbit Lamp ships tomorrow.'],
          source_lang: 'EN',
          target_lang: 'ES',
          direction: 'outgoing',
        },
        glossed.token,
      );
      expect(res.code, res.raw).toBe('000000');
      expect(res.data.translations[0]!.text).toContain('Orbit Lamp');
      expect([await hits(glossed), await csvHits(glossed)]).toEqual([1, 1]);
      // Another seat's figures do not move.
      expect([await hits(live), await csvHits(live)]).toEqual(otherBefore);
    } finally {
      await adminCall(
        t,
        '/v1/admin/glossary/delete',
        { entry_id: added.data.entry.entry_id },
        token,
      );
    }
  });
});

describe('CSV exports', () => {
  it("exports a seat's day by local hour, one column per engine", async () => {
    const res = await csv('/v1/admin/export/series.csv', {
      time_zone: 'Asia/Kolkata',
      from: '2026-01-15',
      to: '2026-01-15',
      seat_id: kolkata.seatId,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="parley-series-seat-/);
    const [head, ...rows] = parseCsv(res.body);
    expect(head).toEqual([
      'start_utc',
      'local_time',
      'messages_in',
      'messages_out',
      'waiting',
      'first_responses',
      'first_response_median_ms',
      'first_response_p90_ms',
      'characters_deepl',
      'characters_libretranslate',
      'memory_characters',
      'glossary_hits',
      'back_translations',
      'flagged_round_trips',
      'assignments',
      'handovers',
      'back_to_queue',
      'queue_wait_avg_ms',
      'queue_wait_p90_ms',
    ]);
    expect(rows).toHaveLength(24);
    expect(rows[9]).toEqual([
      '2026-01-15T03:30:00.000Z',
      '2026-01-15 09:00',
      '6',
      '4',
      '1',
      '3',
      String(25 * MIN),
      String(30 * MIN),
      '50',
      '100',
      '30',
      '0',
      '5',
      '1',
      // No team account here: no assignment, no time in queue.
      '0',
      '0',
      '0',
      '',
      '',
    ]);
    expect(rows[8]!.slice(-7, -5)).toEqual(['1', '1']);
    expect(rows[3]![6]).toBe('');
  });

  it('streams a range longer than a series call answers, a month at a time, by day', async () => {
    const res = await csv('/v1/admin/export/series.csv', {
      time_zone: 'America/New_York',
      from: '2026-01-01',
      to: '2026-12-31',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const rows = parseCsv(res.body).slice(1);
    expect(rows).toHaveLength(365);
    const byDay = new Map(rows.map((r) => [r[1]!.slice(0, 10), r]));
    // Kolkata's 15th is New York's 14th, but for the reply at 11:00 (00:30 on the 15th there).
    expect(byDay.get('2026-01-14')!.slice(2, 4)).toEqual(['8', '5']);
    expect(byDay.get('2026-01-15')!.slice(2, 4)).toEqual(['0', '1']);
    expect(byDay.get('2026-03-08')!.slice(2, 4)).toEqual(['2', '1']);
    expect(byDay.get('2026-03-09')!.slice(2, 4)).toEqual(['0', '1']);
  });

  it('a series export read newest part first has the figures of the whole range read at once', async () => {
    const range = { time_zone: 'Asia/Kolkata', from: '2025-12-20', to: '2026-03-20' };
    const res = await csv('/v1/admin/export/series.csv', range);
    expect(res.statusCode).toBe(200);
    const rows = parseCsv(res.body).slice(1);
    const whole = await t.services.adminStats.seriesOf(
      { timeZone: range.time_zone, from: range.from, to: range.to, seatId: null },
      Date.now(),
      true,
    );
    expect(rows).toHaveLength(whole.buckets.length);
    const figures = (b: (typeof whole.buckets)[number]) =>
      [
        b.messages_in,
        b.messages_out,
        b.waiting,
        b.first_responses,
        b.first_response_median_ms,
        b.first_response_p90_ms,
      ].map((v) => (v === null ? '' : String(v)));
    expect(rows.map((r) => r.slice(2, 8))).toEqual(whole.buckets.map(figures));
    // Not all quiet: the fixtures' chats waited and were answered in the range.
    expect(rows.some((r) => Number(r[4]) > 0)).toBe(true);
  });

  it('exports the audit log with the filters applied, formulas defused', async () => {
    const odd = await t.services.seats.create(
      { account: '@stats-odd', password: 'a-long-password' },
      { type: 'admin', name: 'stats-admin' },
    );
    const res = await csv('/v1/admin/export/audit.csv', {
      action: 'seat.create',
      target_id: odd.id,
    });
    expect(res.statusCode).toBe(200);
    const [head, ...rows] = parseCsv(res.body);
    expect(head![0]).toBe('audit_id');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(2, 8)).toEqual([
      'admin',
      'stats-admin',
      'seat.create',
      'seat',
      String(odd.id),
      "'@stats-odd",
    ]);
    const all = parseCsv((await csv('/v1/admin/export/audit.csv', { action: 'seat.create' })).body);
    expect(all.length - 1).toBeGreaterThanOrEqual(4);
  });

  it("exports the overview's per-seat table", async () => {
    const res = await csv('/v1/admin/export/seats.csv', { tz_offset_min: 330 });
    expect(res.statusCode).toBe(200);
    const [head, ...rows] = parseCsv(res.body);
    expect(head!.slice(0, 3)).toEqual(['seat_id', 'account', 'nickname']);
    expect(rows.map((r) => r[1])).toEqual(
      expect.arrayContaining(['stats-kolkata', 'stats-new-york']),
    );
  });

  it('exports the per-seat table over a chosen range of local days, streamed', async () => {
    const res = await csv('/v1/admin/export/seat-totals.csv', {
      time_zone: 'Asia/Kolkata',
      from: '2026-01-15',
      to: '2026-01-15',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="parley-seats-2026-01-15-2026-01-15.csv"/,
    );
    const [head, ...rows] = parseCsv(res.body);
    expect(head).toEqual([
      'seat_id',
      'account',
      'nickname',
      'messages_in',
      'messages_out',
      'first_responses',
      'first_response_median_ms',
      'first_response_p90_ms',
      'characters_deepl',
      'characters_libretranslate',
      'memory_characters',
      'waiting_now',
      'assignments',
      'handovers',
      'back_to_queue',
      'queue_wait_avg_ms',
    ]);
    const byAccount = new Map(rows.map((r) => [r[1], r]));
    // The Kolkata day's hand counts: replies after 20 (the evening before), 10, 25, 30 and 70
    // minutes; chat 1 waits now.
    expect(byAccount.get('stats-kolkata')).toEqual([
      String(kolkata.seatId),
      'stats-kolkata',
      expect.any(String),
      '7',
      '6',
      '5',
      String(25 * MIN),
      String(70 * MIN),
      '50',
      '107',
      '30',
      '1',
      '0',
      '0',
      '0',
      '',
    ]);
    // New York's chats are on other days; every seat has its row, in id order.
    expect(byAccount.get('stats-new-york')!.slice(3, 11)).toEqual([
      '0',
      '0',
      '0',
      '',
      '',
      '0',
      '0',
      '0',
    ]);
    const ids = rows.map((r) => Number(r[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const week = parseCsv(
      (
        await csv('/v1/admin/export/seat-totals.csv', {
          time_zone: 'America/New_York',
          from: '2026-03-08',
          to: '2026-03-09',
        })
      ).body,
    );
    expect(week[0]).toEqual(head!.filter((h) => !h.startsWith('characters_')));
    const ny = week.find((r) => r[1] === 'stats-new-york')!;
    // Both answered after 40 minutes, the first across the missing hour (01:30 EST to 03:10 EDT).
    expect(ny.slice(3, 8)).toEqual(['2', '2', '2', String(40 * MIN), String(40 * MIN)]);

    for (const [query, code] of [
      [{ time_zone: 'Asia/Kolkata', from: '2026-01-15', to: '2026-01-14' }, '100001'],
      [{ time_zone: 'Mars/Base', from: '2026-01-15', to: '2026-01-15' }, '100001'],
    ] as const) {
      const refused = await csv('/v1/admin/export/seat-totals.csv', query);
      expect(refused.headers['content-type']).toMatch(/json/);
      expect((JSON.parse(refused.body) as { code: string }).code).toBe(code);
    }
    const anonymous = await csv(
      '/v1/admin/export/seat-totals.csv',
      { time_zone: 'UTC', from: '2026-01-15', to: '2026-01-15' },
      null,
    );
    expect((JSON.parse(anonymous.body) as { code: string }).code).toBe('400002');
  });

  it('refuses without the admin token, a bad range and an unknown seat, with the envelope', async () => {
    const day = { time_zone: 'UTC', from: '2026-01-15', to: '2026-01-15' };
    const cases: [Record<string, string | number>, string | null, string][] = [
      [day, null, '400002'],
      [day, kolkata.token, '400002'],
      [{ ...day, from: '2025-01-01' }, token, '100001'],
      [{ ...day, seat_id: 999_999 }, token, '400001'],
    ];
    for (const [query, auth, code] of cases) {
      const res = await csv('/v1/admin/export/series.csv', query, auth);
      expect(res.headers['content-type']).toMatch(/json/);
      expect((JSON.parse(res.body) as { code: string }).code).toBe(code);
    }
  });
});
