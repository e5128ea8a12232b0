import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EXPORT_PATHS } from '@parley/protocol';
import { loadConfig } from '../src/config.js';
import { createAdmin } from './admin-helpers.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

// Issue 34: on SQLite, 8 large exports at once held a seat's getGroupList up to 17 s. Exports
// now give the operators' calls a turn every few milliseconds, and at most
// PARLEY_EXPORTS_AT_ONCE stream at once: one more is refused, coded (503 `500005`,
// `exports_busy`, Retry-After), until a place is free again, also when a client walks away.
// Real HTTP: an export held open by a client that stops reading keeps its place.

const ROWS = 20_000;

let t: TestApp;
let base: string;
let admin: string;
let seat: SeatFixture;

beforeAll(async () => {
  t = await createTestApp({ exportsAtOnce: 1 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = `Bearer ${await createAdmin(t, 'busy-admin')}`;
  seat = await createSeat(t, 'busy-seat', 1);
  // An audit log of some MB: more than the socket buffers between server and client hold.
  const note = 'n'.repeat(200);
  for (let i = 0; i < ROWS; i += 500) {
    await t.db
      .insertInto('audit_log')
      .values(
        Array.from({ length: 500 }, (_, k) => ({
          at: Date.now() - (i + k) * 1000,
          actor_type: 'admin' as const,
          actor: 'busy-admin',
          action: 'seat.update',
          target_type: 'seat' as const,
          target_id: seat.seatId,
          target: 'busy-seat',
          before: JSON.stringify({ note, n: i + k }),
          after: JSON.stringify({ note, n: i + k + 1 }),
        })),
      )
      .execute();
  }
}, 120_000);
afterAll(async () => t?.close());

const exportAudit = (signal?: AbortSignal) =>
  fetch(`${base}${ADMIN_EXPORT_PATHS.audit}?action=seat.update`, {
    headers: { authorization: admin },
    signal,
  });

async function lines(res: Response): Promise<number> {
  return (await res.text()).split('\n').filter((l) => l !== '').length;
}

async function busyAnswer() {
  const res = await exportAudit();
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(await res.json()).toEqual({
    code: '500005',
    msg: 'Server busy',
    data: { reason: 'exports_busy', retry_after_ms: 5000 },
  });
}

describe('exports at once', () => {
  it('one more than allowed is refused, coded; the seat is served meanwhile; the place frees at the end', async () => {
    const first = await exportAudit();
    expect(first.status).toBe(200);
    const reader = first.body!.getReader();
    // The first chunk, then the client stops reading: the export keeps its place.
    const start = await reader.read();
    expect(start.done).toBe(false);

    await busyAnswer();
    // The operators' calls are answered while the export is under way.
    const list = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
    expect(list.code).toBe('000000');

    // Read to its end: whole (the header and every row), and the place is free again.
    const decoder = new TextDecoder();
    let bytes = start.value!.length;
    let text = decoder.decode(start.value!, { stream: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      text += decoder.decode(value, { stream: true });
    }
    expect(bytes).toBeGreaterThan(ROWS * 200);
    // The header and every row, each on its line (the before/after cells hold no newline).
    expect(text.split('\n').filter((l) => l !== '').length).toBe(ROWS + 1);
    const next = await exportAudit();
    expect(next.status).toBe(200);
    expect(await lines(next)).toBe(ROWS + 1);
  }, 60_000);

  it('a client that walks away mid-export frees its place', async () => {
    const abort = new AbortController();
    const first = await exportAudit(abort.signal);
    expect(first.status).toBe(200);
    await first.body!.getReader().read();
    await busyAnswer();
    abort.abort();
    // The server hears the close on its next write.
    const deadline = Date.now() + 10_000;
    let status = 0;
    let rows = 0;
    while (Date.now() < deadline) {
      const res = await exportAudit();
      status = res.status;
      if (status === 200) {
        rows = await lines(res);
        break;
      }
      await res.body?.cancel();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    expect(rows).toBe(ROWS + 1);
  }, 60_000);

  it('a refused export changes nothing and holds no place: a bad query is 100001, then one streams', async () => {
    const bad = await fetch(`${base}${ADMIN_EXPORT_PATHS.series}?time_zone=Nowhere/Else`, {
      headers: { authorization: admin },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('100001');
    const next = await exportAudit();
    expect(next.status).toBe(200);
    expect(await lines(next)).toBe(ROWS + 1);
  }, 60_000);

  it("an export reads on a connection of its own: a write held open on the server's neither holds it nor shows in it", async () => {
    // On SQLite the server has one connection, and an export read on it ran each statement on
    // the loop that serves the operators (issue 34, the seat's p99 at 4.68×): the export now
    // reads from a worker thread's own read-only connection. Held here, a transaction of the
    // server's connection would have kept such an export waiting to its end.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let begun!: () => void;
    const inside = new Promise<void>((resolve) => (begun = resolve));
    const write = t.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('audit_log')
        .values({
          at: Date.now(),
          actor_type: 'admin',
          actor: 'busy-admin',
          action: 'seat.freeze',
          target_type: 'seat',
          target_id: seat.seatId,
          target: 'busy-seat',
          before: null,
          after: null,
        })
        .execute();
      begun();
      await held;
    });
    await inside;
    try {
      const rows: string[] = [];
      const exported = (async () => {
        let text = '';
        for await (const chunk of t.services.adminExport.audit({ action: 'seat.freeze' })) {
          text += String(chunk);
        }
        rows.push(...text.split('\r\n').filter((l) => l !== ''));
      })();
      const outcome = await Promise.race([
        exported.then(() => 'read'),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 15_000)),
      ]);
      expect(outcome).toBe('read');
      // The header alone: the row not yet committed is not in it.
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatch(/^audit_id,/);
    } finally {
      release();
      await write;
    }
    await t.db.deleteFrom('audit_log').where('action', '=', 'seat.freeze').execute();
  }, 60_000);

  it('PARLEY_EXPORTS_AT_ONCE: 2 by default, 1 to 64', () => {
    expect(loadConfig({}).exportsAtOnce).toBe(2);
    expect(loadConfig({ PARLEY_EXPORTS_AT_ONCE: '1' }).exportsAtOnce).toBe(1);
    expect(() => loadConfig({ PARLEY_EXPORTS_AT_ONCE: '0' })).toThrow(/PARLEY_EXPORTS_AT_ONCE/);
  });
});
