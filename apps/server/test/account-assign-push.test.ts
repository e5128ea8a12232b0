import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, createAdmin } from './admin-helpers.js';
import { createChat, createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { PushClient } from './ws-client.js';

// An administrator handing an account to another seat moves its chats (account:assign, the
// admin console's assign): both seats' consoles are pushed the change, so their lists update
// without a reload (issue 25: it pushed nothing).

let t: TestApp;
let base: string;
let token: string;
const clients: PushClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = await createAdmin(t, 'assign-push-admin');
});
afterAll(async () => {
  clients.forEach((c) => c.close());
  await t?.close();
});

async function consoleOf(seat: SeatFixture) {
  const client = await PushClient.open(base, { token: seat.token });
  clients.push(client);
  await client.waitFor('ready');
  return client;
}

const unreadOf = async (seat: SeatFixture) =>
  (await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).data.un_read_count;

describe('account:assign', () => {
  it('pushes the chats gone to the old seat, new to the new one, and both group lists', async () => {
    const from = await createSeat(t, 'assign-push-from');
    const to = await createSeat(t, 'assign-push-to');
    const chats = [
      await createChat(t.db, from, { unread: 2 }),
      await createChat(t.db, from, { unread: 1, groupId: from.groups.blocked }),
    ];
    // A chat of the old seat's other account stays there.
    const kept = await createChat(t.db, from, {
      unread: 4,
      sendPhone: (await t.services.accounts.add({ phone: '+15550009901', seat: from.account }))
        .send_phone,
    });
    const fromConsole = await consoleOf(from);
    const toConsole = await consoleOf(to);
    const [acct] = (
      await adminCall(t, '/v1/admin/accounts/list', { seat_id: from.seatId }, token)
    ).data.list.filter((a) => a.send_phone === from.phones[0]);
    const res = await adminCall(
      t,
      '/v1/admin/accounts/assign',
      { account_id: acct!.account_id, seat_id: to.seatId },
      token,
    );
    expect(res.data.moved_chats).toBe(2);

    const gone = await fromConsole.until(() => {
      const ids = fromConsole
        .events()
        .filter((e) => e.type === 'session.deleted')
        .map((e) => (e.data as { session_id: number }).session_id);
      return ids.length >= 2 ? ids : undefined;
    }, 'session.deleted of both chats');
    expect(gone.sort()).toEqual(chats.map((c) => c.sessionId).sort());
    const fromList = await fromConsole.waitForEvent('groups.changed');
    expect((fromList.data as { un_read_count: number }).un_read_count).toBe(4);
    expect(await unreadOf(from)).toBe(4);

    const created = await toConsole.until(() => {
      const rows = toConsole
        .events()
        .filter((e) => e.type === 'session.created')
        .map((e) => (e.data as { session: { session_id: number; group_id: number } }).session);
      return rows.length >= 2 ? rows : undefined;
    }, 'session.created of both chats');
    expect(created.map((s) => s.session_id).sort()).toEqual(chats.map((c) => c.sessionId).sort());
    // Both in the new seat's Ungrouped group (the blocked one unblocked).
    expect(new Set(created.map((s) => s.group_id))).toEqual(new Set([to.groups.ungrouped]));
    const toList = await toConsole.waitForEvent('groups.changed');
    expect((toList.data as { un_read_count: number }).un_read_count).toBe(3);
    expect(await unreadOf(to)).toBe(3);
    // The kept chat was not pushed anywhere.
    const ids = [...fromConsole.events(), ...toConsole.events()].flatMap((e) => {
      const d = e.data as { session_id?: number; session?: { session_id: number } };
      return [d.session_id, d.session?.session_id];
    });
    expect(ids).not.toContain(kept.sessionId);
  });
});
