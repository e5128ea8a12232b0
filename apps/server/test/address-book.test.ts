import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { addressBookRepository } from '../src/modules/address-book/address-book.repository.js';
import { createGroup, createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const BOOK = '/v1/seat/chat/addressBook';

/** A chat started by the customer (the service behind the bridge and `chat:receive`). */
async function chatWith(sendPhone: string, receiverPhone: string) {
  const res = await t.services.messages.receive({ sendPhone, receiverPhone, content: 'hi' });
  if ('blocked' in res) throw new Error('blocked');
  return res.sessionId;
}

async function book(seat: SeatFixture, body: Record<string, unknown> = {}) {
  return t.call(BOOK, body, seat.token);
}

async function allPages(seat: SeatFixture, body: Record<string, unknown>) {
  const entries: { session_id: number; receiver_phone: string }[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await book(seat, { ...body, ...(cursor ? { cursor } : {}) });
    expect(res.code).toBe('000000');
    entries.push(...res.data.list);
    totals.add(res.data.total);
    cursor = res.data.next_cursor;
    pages++;
  } while (cursor && pages < 100);
  return { entries, pages, totals: [...totals] };
}

/** A number of the seat's test run with a chosen tail, so the order is known. */
const unique = nextPhone('+7').slice(2, 8);
const num = (tail: string) => `+7${unique}${tail}`;

describe('addressBook', () => {
  it("with session_id: that chat only if it is the seat's (a chat's link), else an empty list", async () => {
    const seat = await createSeat(t, 'ab-link', 1);
    const other = await createSeat(t, 'ab-link-other', 1);
    const mine = await chatWith(seat.phones[0]!, num('5100'));
    const theirs = await chatWith(other.phones[0]!, num('5200'));
    await chatWith(seat.phones[0]!, num('5300'));

    const found = await book(seat, { session_id: mine });
    expect(found.code).toBe('000000');
    expect(found.data.list.map((e: { session_id: number }) => e.session_id)).toEqual([mine]);
    expect(found.data.total).toBe(1);
    // Another seat's chat, or one that does not exist: nothing of it.
    for (const id of [theirs, 999_999_999]) {
      const none = await book(seat, { session_id: id });
      expect(none.code).toBe('000000');
      expect(none.data).toEqual({ list: [], total: 0, next_cursor: null });
    }
    // Not an id: the parameter error, translated, nothing listed.
    expect((await book(seat, { session_id: 'x' })).code).toBe('100001');
  });

  it('lists every chat of the seat across accounts by customer number, with its group', async () => {
    const seat = await createSeat(t, 'ab-order', 2);
    const [lineA, lineB] = seat.phones as [string, string];
    const vip = await createGroup(t, seat, 'VIP');
    const s3 = await chatWith(lineA, num('3000'));
    const s1 = await chatWith(lineB, num('1000'));
    const s2a = await chatWith(lineA, num('2000'));
    const s2b = await chatWith(lineB, num('2000'));
    expect(
      (
        await t.call(
          '/v1/seat/chat/moveSessionGroup',
          { session_id: s3, group_id: vip },
          seat.token,
        )
      ).code,
    ).toBe('000000');
    expect((await t.call('/v1/seat/chat/block', { session_id: s1 }, seat.token)).code).toBe(
      '000000',
    );

    const res = await book(seat);
    expect(res.code).toBe('000000');
    expect(res.data.total).toBe(4);
    expect(res.data.next_cursor).toBeNull();
    expect(res.data.list.map((e) => e.session_id)).toEqual([s1, s2a, s2b, s3]);
    expect(res.data.list[0]).toMatchObject({
      receiver_phone: num('1000'),
      send_phone: lineB,
      blocked: true,
      group_id: seat.groups.blocked,
      group_name: 'Blocked',
      group_type: 'blocked',
    });
    // The same customer on two accounts is two entries (one per chat).
    expect(res.data.list[1]).toMatchObject({ send_phone: lineA, group_type: 'ungrouped' });
    expect(res.data.list[2]).toMatchObject({ send_phone: lineB, group_name: 'Ungrouped' });
    expect(res.data.list[3]).toMatchObject({
      group_id: vip,
      group_name: 'VIP',
      group_type: 'custom',
      blocked: false,
    });
  });

  it('searches by number or remark, case-insensitively and literally', async () => {
    const seat = await createSeat(t, 'ab-search');
    const line = seat.phones[0]!;
    const a = await chatWith(line, num('4101'));
    const b = await chatWith(line, num('4102'));
    const c = await chatWith(line, num('5203'));
    const remark = (session_id: number, text: string) =>
      t.call('/v1/seat/chat/set_remark', { session_id, remark: text }, seat.token);
    await remark(a, 'Maria Silva');
    await remark(b, '100% VIP_buyer');
    await remark(c, 'Иван 41');

    const ids = async (keyword: string) => {
      const res = await book(seat, { keyword });
      expect(res.code).toBe('000000');
      expect(res.data.total).toBe(res.data.list.length);
      return res.data.list.map((e) => e.session_id);
    };
    expect(await ids('41')).toEqual([a, b, c]); // numbers 4101, 4102 and the remark "Иван 41"
    expect(await ids(`${unique}410`)).toEqual([a, b]);
    expect(await ids('MARIA')).toEqual([a]);
    expect(await ids('иван')).toEqual([c]);
    expect(await ids('100%')).toEqual([b]);
    expect(await ids('vip_')).toEqual([b]);
    expect(await ids('%')).toEqual([b]);
    expect(await ids('_')).toEqual([b]);
    expect(await ids('nobody')).toEqual([]);
    // An empty (or blank) keyword lists everything.
    expect(await ids('   ')).toEqual([a, b, c]);
  });

  it('pages without gaps or repeats; total counts every match', async () => {
    const seat = await createSeat(t, 'ab-paging', 2);
    const created: number[] = [];
    // Shuffled creation order; every number is on both accounts for the id tie-break.
    for (const tail of ['0007', '0003', '0005', '0001', '0004', '0002', '0006']) {
      for (const line of seat.phones) created.push(await chatWith(line, num(tail)));
    }
    const { entries, pages, totals } = await allPages(seat, { page_size: 3 });
    expect(totals).toEqual([14]);
    expect(pages).toBe(5);
    expect(new Set(entries.map((e) => e.session_id)).size).toBe(14);
    const sorted = [...entries].sort((x, y) =>
      x.receiver_phone === y.receiver_phone
        ? x.session_id - y.session_id
        : x.receiver_phone < y.receiver_phone
          ? -1
          : 1,
    );
    expect(entries).toEqual(sorted);
    expect(new Set(entries.map((e) => e.session_id))).toEqual(new Set(created));

    const filtered = await allPages(seat, { page_size: 1, keyword: num('000').slice(-6) });
    expect(filtered.totals).toEqual([14]);
    const five = await allPages(seat, { page_size: 2, keyword: num('0005') });
    expect(five.totals).toEqual([2]);
    expect(five.pages).toBe(1);
    expect(five.entries.map((e) => e.receiver_phone)).toEqual([num('0005'), num('0005')]);
  });

  it('shows only the seat’s own customers; bad input answers 100001', async () => {
    const a = await createSeat(t, 'ab-iso-a');
    const b = await createSeat(t, 'ab-iso-b');
    const mine = await chatWith(a.phones[0]!, num('8001'));
    await chatWith(b.phones[0]!, num('8002'));
    await chatWith(b.phones[0]!, num('8003'));
    const res = await book(a);
    expect(res.data.list.map((e) => e.session_id)).toEqual([mine]);
    expect(res.data.total).toBe(1);
    expect((await book(a, { keyword: '8002' })).data).toMatchObject({ list: [], total: 0 });
    // B's cursor is only a position in the order: A still sees only A's customers.
    const cursor = Buffer.from(JSON.stringify([num('0000'), 1])).toString('base64url');
    expect((await book(a, { cursor })).data.list.map((e) => e.session_id)).toEqual([mine]);

    for (const bad of [
      'x',
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('["+1",0]').toString('base64url'),
    ]) {
      const r = await book(a, { cursor: bad });
      expect(r.code).toBe('100001');
      expect(r.msg).toBe('Parameter error: cursor');
    }
    const big = await book(a, { page_size: 1000 });
    expect(big.code).toBe('100001');
    expect(big.msg).toBe('Parameter error: page_size');
    const long = await book(a, { keyword: 'x'.repeat(65) });
    expect(long.msg).toBe('Parameter error: keyword');
    expect((await t.call(BOOK, {}, null)).code).toBe('400002');
  });

  it('walks its own index (query plan)', async () => {
    const seat = await createSeat(t, 'ab-plan');
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      seat_id: seat.seatId,
      send_phone: seat.phones[0]!,
      receiver_phone: `+9${unique}${String(i).padStart(5, '0')}`,
      group_id: seat.groups.ungrouped,
      prev_group_id: null,
      is_top: 0,
      remark: '',
      un_read_count: 0,
      add_time: 1,
      latest_time: 1,
      last_direction: null,
      last_preview: null,
      last_type: null,
      customer_language: null,
      blocked: 0,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await t.db
        .insertInto('sessions')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    if (usingPg) await sql`analyze sessions`.execute(t.db);
    const cases = [
      { filter: { seatId: seat.seatId }, after: null },
      { filter: { seatId: seat.seatId }, after: { receiverPhone: `+9${unique}01000`, id: 1 } },
      { filter: { seatId: seat.seatId, keyword: '99' }, after: null },
    ];
    for (const { filter, after } of cases) {
      const compiled = addressBookRepository.pageQuery(t.db, filter, after, 51).compile();
      const explain = usingPg ? 'explain ' : 'explain query plan ';
      const { rows } = await t.db.executeQuery<Record<string, string>>(
        CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]),
      );
      const plan = rows.map((r) => r['QUERY PLAN'] ?? r.detail).join('\n');
      expect(plan, plan).toContain('sessions_book_idx');
      // Already in order: no sort of the seat's whole book before the limit.
      expect(plan, plan).not.toMatch(/TEMP B-TREE|Sort/);
      expect(plan, plan).not.toMatch(/Seq Scan on sessions|SCAN sessions\b/);
    }
  });
});
