import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsRepository } from '../src/modules/events/events.repository.js';
import { inTransaction } from '../src/lib/tx.js';
import { createTestApp, type TestApp } from './helper.js';

/**
 * Events recorded together (a team's queue told to its members, a batch's pushes) are numbered
 * in each seat's order, after the seat's last number, with no gap and no repeat: a console
 * resumes from the last number it saw. On SQLite a statement per chunk, not two per event.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function seats(n: number, name: string): Promise<number[]> {
  const now = Date.now();
  const rows = await t.db
    .insertInto('seats')
    .values(
      Array.from({ length: n }, (_, i) => ({
        account: `${name}-${i}`,
        nickname: `${name} ${i}`,
        password_hash: '!',
        frozen: 1,
        created_at: now,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

const event = (seatId: number, data: string) => ({
  seat_id: seatId,
  type: 'team.queue',
  data,
  at: Date.now(),
  request_id: null,
});

const logOf = (seatIds: number[]) =>
  t.db
    .selectFrom('events')
    .select(['seat_id', 'seq', 'data'])
    .where('seat_id', 'in', seatIds)
    .orderBy('seat_id')
    .orderBy('seq')
    .execute();

describe('events recorded together', () => {
  it("take each seat's next numbers, in the order given, after the numbers it had", async () => {
    const [a, b, c] = await seats(3, 'numbering');
    // Seat a already has two events; b and c none.
    await inTransaction(t.db, (trx) => eventsRepository.append(trx, event(a!, 'a0')));
    await inTransaction(t.db, (trx) => eventsRepository.append(trx, event(a!, 'a1')));
    // More than a chunk of events (1,000 a statement on SQLite), the seats interleaved.
    const rows = Array.from({ length: 2_500 }, (_, i) => {
      const seat = [a!, b!, c!][i % 3]!;
      return event(seat, `${seat === a ? 'a' : seat === b ? 'b' : 'c'}-${i}`);
    });
    const seqs = await inTransaction(t.db, (trx) => eventsRepository.appendMany(trx, rows));

    const log = await logOf([a!, b!, c!]);
    for (const seat of [a!, b!, c!]) {
      const mine = log.filter((r) => r.seat_id === seat);
      const given = rows.filter((r) => r.seat_id === seat).map((r) => r.data);
      const before = seat === a ? ['a0', 'a1'] : [];
      // Numbered from 1 with no gap, in the order recorded (the earlier ones first).
      expect(mine.map((r) => Number(r.seq))).toEqual(
        Array.from({ length: mine.length }, (_, i) => i + 1),
      );
      expect(mine.map((r) => r.data)).toEqual([...before, ...given]);
    }
    // Each event's number is what was returned for it.
    const bySeatSeq = new Map(log.map((r) => [`${r.seat_id}:${Number(r.seq)}`, r.data]));
    rows.forEach((r, i) => expect(bySeatSeq.get(`${r.seat_id}:${seqs[i]}`)).toBe(r.data));
  });

  it('to more seats than a statement takes: every seat numbered after its last', async () => {
    const many = await seats(1_001, 'numbering-many');
    await inTransaction(t.db, (trx) => eventsRepository.append(trx, event(many[1_000]!, 'x0')));
    const rows = many.map((id) => event(id, `to-${id}`));
    await inTransaction(t.db, (trx) => eventsRepository.appendMany(trx, rows));
    const log = await logOf(many);
    expect(log).toHaveLength(1_002);
    const last = log.filter((r) => r.seat_id === many[1_000]);
    expect(last.map((r) => [Number(r.seq), r.data])).toEqual([
      [1, 'x0'],
      [2, `to-${many[1_000]}`],
    ]);
    const first = log.filter((r) => r.seat_id === many[0]);
    expect(first.map((r) => [Number(r.seq), r.data])).toEqual([[1, `to-${many[0]}`]]);
  });

  it('leave no number taken when the transaction rolls back', async () => {
    const [d] = await seats(1, 'numbering-rollback');
    await expect(
      inTransaction(t.db, async (trx) => {
        await eventsRepository.appendMany(trx, [event(d!, 'lost-1'), event(d!, 'lost-2')]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await inTransaction(t.db, (trx) => eventsRepository.appendMany(trx, [event(d!, 'kept')]));
    const log = await logOf([d!]);
    expect(log.map((r) => [Number(r.seq), r.data])).toEqual([[1, 'kept']]);
  });
});
