import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../src/lib/tx.js';
import { createChat, createGroup, createSeat } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

// PostgreSQL only (vitest.config.ts): SQLite runs one write transaction at a time, so neither
// race can happen there.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** A promise with its resolver, to line two transactions up. */
function signal() {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fire, fired };
}

describe('a transaction that lost a race on PostgreSQL', () => {
  it('is run again when chosen as a deadlock victim: both writers commit', async () => {
    const seat = await createSeat(t, 'deadlock');
    const a = await createGroup(t, seat, 'Lock A');
    const b = await createGroup(t, seat, 'Lock B');
    const rename = (id: number, name: string) => (db: typeof t.db) =>
      db.updateTable('seat_groups').set({ name }).where('id', '=', id).execute();
    const firstHolds = signal();
    const secondHolds = signal();
    let runs = 0;
    // Each takes one row, waits until the other holds its row, then takes the other's.
    const first = inTransaction(t.db, async (trx) => {
      runs += 1;
      await rename(a, 'A by first')(trx);
      firstHolds.fire();
      await secondHolds.fired;
      await rename(b, 'B by first')(trx);
    });
    const second = inTransaction(t.db, async (trx) => {
      runs += 1;
      await rename(b, 'B by second')(trx);
      secondHolds.fire();
      await firstHolds.fired;
      await rename(a, 'A by second')(trx);
    });
    const results = await Promise.allSettled([first, second]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    // One of them was the deadlock's victim and ran again, after the other had committed.
    expect(runs).toBe(3);
    const names = await t.db
      .selectFrom('seat_groups')
      .select('name')
      .where('id', 'in', [a, b])
      .orderBy('id')
      .execute();
    expect([
      ['A by first', 'B by first'],
      ['A by second', 'B by second'],
    ]).toContainEqual(names.map((r) => r.name));
  });

  it('is run again when a row it read was deleted meanwhile: the re-run sees it gone', async () => {
    const seat = await createSeat(t, 'fk-race');
    const chat = await createChat(t.db, seat, {});
    const group = await createGroup(t, seat, 'Going');
    const read = signal();
    const deleted = signal();
    let runs = 0;
    // A move of a chat into a group reads the group, then its deletion commits, then the move
    // is written: on its first run it points at a group that is gone.
    const move = inTransaction(t.db, async (trx) => {
      runs += 1;
      const target = await trx
        .selectFrom('seat_groups')
        .select('id')
        .where('id', '=', group)
        .executeTakeFirst();
      if (runs === 1) {
        read.fire();
        await deleted.fired;
      }
      if (!target) return 'gone';
      await trx
        .updateTable('sessions')
        .set({ group_id: target.id })
        .where('id', '=', chat.sessionId)
        .execute();
      return 'moved';
    });
    await read.fired;
    const del = await t.call('/v1/seat/chat/doGroup', { type: 'del', group_id: group }, seat.token);
    expect(del.code).toBe('000000');
    deleted.fire();
    expect(await move).toBe('gone');
    expect(runs).toBe(2);
  });

  it('is run again when it lost a unique race: the re-run finds the row the other inserted', async () => {
    const seat = await createSeat(t, 'unique-race');
    const firstInserted = signal();
    const secondLooked = signal();
    const phones = { send_phone: seat.phones[0]!, receiver_phone: '+447700900123' };
    const find = (trx: typeof t.db) =>
      trx
        .selectFrom('sessions')
        .select('id')
        .where('send_phone', '=', phones.send_phone)
        .where('receiver_phone', '=', phones.receiver_phone)
        .executeTakeFirst();
    const insert = (trx: typeof t.db) =>
      trx
        .insertInto('sessions')
        .values({
          seat_id: seat.seatId,
          ...phones,
          group_id: seat.groups.ungrouped,
          prev_group_id: null,
          is_top: 0,
          remark: '',
          un_read_count: 0,
          add_time: Date.now(),
          latest_time: Date.now(),
          last_direction: null,
          last_preview: null,
          last_type: null,
          customer_language: null,
          blocked: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    let secondRuns = 0;
    // Two first contacts of one customer: both look before either commits, both insert.
    const first = inTransaction(t.db, async (trx) => {
      const found = (await find(trx)) ?? (await insert(trx));
      firstInserted.fire();
      await secondLooked.fired;
      return found.id;
    });
    const second = inTransaction(t.db, async (trx) => {
      secondRuns += 1;
      await firstInserted.fired;
      const found = await find(trx);
      secondLooked.fire();
      return (found ?? (await insert(trx))).id;
    });
    const [a, b] = await Promise.all([first, second]);
    expect(b).toBe(a);
    expect(secondRuns).toBe(2);
  });

  it("takes a new customer's first messages arriving at once into one chat, none refused", async () => {
    const seat = await createSeat(t, 'first-contact');
    const receiverPhone = '+447700900456';
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        t.services.messages.receive({
          sendPhone: seat.phones[0]!,
          receiverPhone,
          content: `hello ${i}`,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const chats = await t.db
      .selectFrom('sessions')
      .select(['id', 'un_read_count'])
      .where('receiver_phone', '=', receiverPhone)
      .execute();
    expect(chats).toHaveLength(1);
    expect(chats[0]!.un_read_count).toBe(8);
  });
});
