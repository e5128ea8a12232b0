import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoLoadDemo } from '../src/demo/auto-load.js';
import { DEMO_ACCOUNT, DEMO_PASSWORD } from '../src/demo/demo.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';

let t: TestApp;
let loadMs = 0;

beforeAll(async () => {
  t = await createTestApp({ demo: 'auto' });
  const started = Date.now();
  const result = await autoLoadDemo(t.config, t.app.parley.database);
  loadMs = Date.now() - started;
  if (usingPg) {
    // auto seeds only the embedded database; `on` seeds PostgreSQL too.
    expect(result.loaded).toBe(false);
    const on = await autoLoadDemo({ ...t.config, demo: 'on' }, t.app.parley.database);
    expect(on.loaded).toBe(true);
  } else {
    expect(result.loaded).toBe(true);
  }
});
afterAll(async () => t?.close());

async function login(account: string) {
  const res = await t.call('/v1/seat/chat/login', { account, password: DEMO_PASSWORD });
  expect(res.code).toBe('000000');
  return res.data;
}

describe('demo workspace', () => {
  it('loads fast and only into an empty database', async () => {
    expect(loadMs).toBeLessThan(3000);
    const again = await autoLoadDemo({ ...t.config, demo: 'on' }, t.app.parley.database);
    expect(again.loaded).toBe(false);
  });

  it('demo / parley-demo: ≥3 accounts, ≥300 chats over custom and built-in groups and both tabs', async () => {
    const user = await login(DEMO_ACCOUNT);
    expect(user.nickname).toBe('Demo Operator');
    expect(user.phone_accounts.length).toBeGreaterThanOrEqual(3);
    const groups = await t.call('/v1/seat/chat/getGroupList', {}, user.token);
    const list = groups.data.group_list;
    expect(list.filter((g) => g.group_type === 'custom').map((g) => g.group_name)).toEqual(
      expect.arrayContaining(['VIP', 'Follow-up']),
    );

    let chats = 0;
    let unreadFromLists = 0;
    const perTab = { 1: 0, 2: 0 };
    let pinned = 0;
    for (const g of list) {
      for (const tab of [1, 2] as const) {
        let cursor: string | null = null;
        do {
          const page: Awaited<ReturnType<typeof t.call<'/v1/seat/chat/getGroupInfo'>>> =
            await t.call(
              '/v1/seat/chat/getGroupInfo',
              {
                group_id: g.group_id,
                user_time_type: tab,
                page_size: 200,
                ...(cursor ? { cursor } : {}),
              },
              user.token,
            );
          expect(page.code).toBe('000000');
          for (const s of page.data.account_list) {
            chats++;
            perTab[tab]++;
            unreadFromLists += s.un_read_count;
            if (s.is_top) pinned++;
            expect(user.phone_accounts.map((a) => a.send_phone)).toContain(s.send_phone);
          }
          cursor = page.data.next_cursor;
        } while (cursor);
      }
      expect(g.un_read).toBeGreaterThanOrEqual(0);
    }
    expect(chats).toBeGreaterThanOrEqual(300);
    expect(perTab[1]).toBeGreaterThan(50);
    expect(perTab[2]).toBeGreaterThan(50);
    expect(pinned).toBeGreaterThan(0);
    const byType = (type: string) => list.find((g) => g.group_type === type)!;
    // Counts are consistent: groups sum to the total, tabs split it, lists agree.
    const sum = list.reduce((n, g) => n + g.un_read, 0);
    expect(groups.data.un_read_count).toBe(sum);
    expect(groups.data.seat_one_seat_msg_count + groups.data.seat_two_seat_msg_count).toBe(sum);
    expect(unreadFromLists).toBe(sum);
    expect(sum).toBeGreaterThan(100);
    expect(byType('blocked').disabled).toBe(true);

    // Chats exist in every group, built-in ones included.
    for (const g of list) {
      const a = await t.call(
        '/v1/seat/chat/getGroupInfo',
        { group_id: g.group_id, user_time_type: 1 },
        user.token,
      );
      const b = await t.call(
        '/v1/seat/chat/getGroupInfo',
        { group_id: g.group_id, user_time_type: 2 },
        user.token,
      );
      expect(a.data.total + b.data.total, g.group_name).toBeGreaterThan(0);
    }
  });

  it('a few thousand messages in several languages, both directions', async () => {
    const rows = await t.db
      .selectFrom('messages')
      .innerJoin('sessions', 'sessions.id', 'messages.session_id')
      .select(['messages.direction', 'sessions.customer_language'])
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(rows.map((r) => r.direction))).toEqual(new Set(['in', 'out']));
    expect(new Set(rows.map((r) => r.customer_language)).size).toBeGreaterThanOrEqual(5);
    // The unread count of each chat never exceeds its trailing customer messages.
    const user = await login(DEMO_ACCOUNT);
    const info = await t.call(
      '/v1/seat/chat/getGroupInfo',
      {
        group_id: (await t.call('/v1/seat/chat/getGroupList', {}, user.token)).data.group_list[0]!
          .group_id,
      },
      user.token,
    );
    const chat = info.data.account_list.find((s) => s.un_read_count > 0)!;
    const record = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: chat.send_phone, receiver_phone: chat.receiver_phone },
      user.token,
    );
    const tail = record.data.list.slice(-chat.un_read_count);
    expect(tail.every((m) => m.direction === 'in')).toBe(true);
    expect(record.data.list.at(-1)!.created_at).toBe(chat.latest_time);
  });

  it('demo has text quick replies; demo2 has none of them', async () => {
    const demo = await login(DEMO_ACCOUNT);
    const list = await t.call('/v1/seat/chat/quickReplyList', {}, demo.token);
    expect(list.code).toBe('000000');
    expect(list.data.list.length).toBeGreaterThanOrEqual(3);
    expect(list.data.list.every((q) => q.kind === 'text' && q.content.length > 0)).toBe(true);
    expect(list.data.list[0]!.name).toBe('Goodbye');
    const other = await login('demo2');
    expect((await t.call('/v1/seat/chat/quickReplyList', {}, other.token)).data.list).toEqual([]);
  });

  it('demo2 sees only its own chats', async () => {
    const demo = await login(DEMO_ACCOUNT);
    const other = await login('demo2');
    expect(other.phone_accounts).toHaveLength(1);
    const groups = await t.call('/v1/seat/chat/getGroupList', {}, other.token);
    const ungrouped = groups.data.group_list[0]!;
    const info = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: ungrouped.group_id, page_size: 200 },
      other.token,
    );
    const older = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: ungrouped.group_id, page_size: 200, user_time_type: 2 },
      other.token,
    );
    expect(info.data.total + older.data.total).toBe(8);
    const demoGroups = await t.call('/v1/seat/chat/getGroupList', {}, demo.token);
    expect(demoGroups.data.group_list.map((g) => g.group_id)).not.toContain(ungrouped.group_id);
  });
});
