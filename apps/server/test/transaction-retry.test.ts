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
});
