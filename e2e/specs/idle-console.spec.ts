import { randomBytes } from 'node:crypto';
import type { Page, Request } from '@playwright/test';
import { SANDBOX_KEY_HEADER, SANDBOX_PATHS, SUCCESS_CODE } from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import { expectBadge, revealUserItem, signIn, userItem } from '../support/app';
import { builtInGroup, customerPhone, listedIds, seatToken } from '../support/chats';
import { call } from '../support/api';
import { uniqueText } from '../support/chat';

/**
 * An idle console with two pages of its list loaded, while customers write in: every change
 * reaches it through the push socket and lands in the loaded pages (new row, order, unread
 * counts, the list's total), and no page is read again. Only the spec's 10-second group-list
 * poll goes on (issue 25).
 */

test.describe.configure({ timeout: 120_000 });

/** Page size of the console's user list (the protocol's default). */
const PAGE = 50;

/** The page's requests of a path, counted from now on. */
function countCalls(page: Page, path: string): { count: () => number } {
  let n = 0;
  page.on('request', (r: Request) => {
    if (new URL(r.url()).pathname === path) n += 1;
  });
  return { count: () => n };
}

/** Another party: a customer writing to the seat's account through the sandbox's API. */
function customers(baseURL: string, account: string) {
  const key = randomBytes(32).toString('base64url');
  return async (customer: string, content: string): Promise<void> => {
    const res = await fetch(`${baseURL}${SANDBOX_PATHS.send}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SANDBOX_KEY_HEADER]: key },
      body: JSON.stringify({ account, customer, content }),
    });
    const body = (await res.json()) as { code: string; msg: string };
    expect(body.code, body.msg).toBe(SUCCESS_CODE);
  };
}

async function scrollToTop(page: Page): Promise<void> {
  const list = page.getByTestId('user-list');
  await list.hover();
  for (let i = 0; i < 20; i += 1) await page.mouse.wheel(0, -3000);
}

test('an idle console shows customers writing in without reading its loaded pages again', async ({
  page,
  parley,
  freshSeat,
}) => {
  const write = customers(parley.url, freshSeat.phone);
  // Oldest first: the first customer's chat ends up on the list's second page.
  const numbers = Array.from({ length: PAGE + 5 }, customerPhone);
  for (const n of numbers) await write(n, `Hello from ${n}`);
  const token = await seatToken(parley.url, freshSeat);
  const { group_list } = await call(parley.url, '/v1/seat/chat/getGroupList', { reply: 0 }, token);
  const ungroupedId = group_list.find((g) => g.group_type === 'ungrouped')!.group_id;
  const { account_list } = await call(
    parley.url,
    '/v1/seat/chat/getGroupInfo',
    { group_id: ungroupedId, user_time_type: 1, page_size: 200 },
    token,
  );
  const idOf = (n: string) => account_list.find((s) => s.receiver_phone === n)!.session_id;
  const oldest = idOf(numbers[0]!);
  const middle = idOf(numbers[10]!);

  await signIn(page, freshSeat.account, freshSeat.password);
  await builtInGroup(page, 'ungrouped').click();
  await page.getByTestId('time-tab-1').click();
  await expect(page.getByText(`${numbers.length} chats`)).toBeVisible();
  // Both pages loaded: the oldest chat is on the second.
  await revealUserItem(page, oldest);
  await scrollToTop(page);
  await expect(page.getByTestId('realtime-offline')).toHaveCount(0);

  const pages = countCalls(page, '/v1/seat/chat/getGroupInfo');
  const groups = countCalls(page, '/v1/seat/chat/getGroupList');
  const started = Date.now();

  // The oldest chat (second page) and a middle one write again; a new customer writes first.
  const fromOldest = uniqueText('Back again');
  await write(numbers[0]!, fromOldest);
  await expect(userItem(page, oldest)).toContainText(fromOldest);
  const fromMiddle = uniqueText('Still there?');
  await write(numbers[10]!, uniqueText('One more'));
  await write(numbers[10]!, fromMiddle);
  await expect(userItem(page, middle)).toContainText(fromMiddle);
  const newcomer = customerPhone();
  const hello = uniqueText('First time here');
  await write(newcomer, hello);
  const newRow = page.locator(`[data-testid="user-item"][data-receiver-phone="${newcomer}"]`);
  await expect(newRow).toContainText(hello);

  // Past the list's old 10-second refetch: a console that re-read its pages would have by now.
  await page.waitForTimeout(Math.max(0, 11_000 - (Date.now() - started)));

  // Latest activity first, each with its unread count; the total counts the newcomer.
  const newId = Number(await newRow.getAttribute('data-session-id'));
  expect((await listedIds(page)).slice(0, 3)).toEqual([newId, middle, oldest]);
  await expectBadge(newRow.getByTestId('user-unread'), 1);
  await expectBadge(userItem(page, middle).getByTestId('user-unread'), 3);
  await expectBadge(userItem(page, oldest).getByTestId('user-unread'), 2);
  await expect(page.getByText(`${numbers.length + 1} chats`)).toBeVisible();
  await expectBadge(
    builtInGroup(page, 'ungrouped').getByTestId('group-unread'),
    numbers.length + 4,
  );

  expect(pages.count(), 'getGroupInfo requests while idle').toBe(0);
  // The spec's poll, every 10 s.
  expect(groups.count(), 'getGroupList requests while idle').toBeLessThanOrEqual(2);
});

test("a group deleted in another console: its chats come back to this console's Ungrouped", async ({
  page,
  parley,
  freshSeat,
}) => {
  const write = customers(parley.url, freshSeat.phone);
  const number = customerPhone();
  await write(number, uniqueText('Hello'));
  const token = await seatToken(parley.url, freshSeat);
  await signIn(page, freshSeat.account, freshSeat.password);
  await builtInGroup(page, 'ungrouped').click();
  await page.getByTestId('time-tab-1').click();
  const row = page.locator(`[data-testid="user-item"][data-receiver-phone="${number}"]`);
  await expect(row).toBeVisible();
  const sessionId = Number(await row.getAttribute('data-session-id'));

  // Elsewhere: the chat goes into a new group (pushed: it leaves this list), then the group is
  // deleted, which moves its chats back with no event of their own.
  const { group } = await call(
    parley.url,
    '/v1/seat/chat/doGroup',
    { type: 'add', group_name: `Gone ${Date.now() % 100_000}` },
    token,
  );
  await call(
    parley.url,
    '/v1/seat/chat/moveSessionGroup',
    { session_id: sessionId, group_id: group.group_id },
    token,
  );
  await expect(userItem(page, sessionId)).toHaveCount(0);
  await call(parley.url, '/v1/seat/chat/doGroup', { type: 'del', group_id: group.group_id }, token);
  await expect(userItem(page, sessionId)).toBeVisible();
  await expect(page.getByText('1 chat', { exact: true })).toBeVisible();
});
