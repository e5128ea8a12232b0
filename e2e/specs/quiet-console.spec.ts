import type { Page, Request } from '@playwright/test';
import { ERROR_CODES, ERROR_MESSAGES } from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import { apiLogin } from '../support/api';
import { fillLogin, login, signIn, toast, userItem } from '../support/app';
import { bubble, uniqueText } from '../support/chat';
import { builtInGroup, createGroup } from '../support/chats';
import { seedChats } from '../support/seed-chats';

/**
 * The console an operator can trust all day: normal work raises no false "Server busy", a
 * pushed change is not fetched again, and a refusal is a translated toast, not a red
 * "Failed to load resource" in the browser's console.
 */

// Seeding chats runs the CLI once per chat (a Node start each).
test.describe.configure({ timeout: 180_000 });

/** Every notification the page shows, recorded as it appears (they close by themselves). */
async function recordNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __notices: string[] }).__notices = seen;
    new MutationObserver((records) => {
      for (const r of records) {
        r.addedNodes.forEach((n) => {
          if (!(n instanceof HTMLElement)) return;
          const roots = n.matches('.mantine-Notification-root')
            ? [n]
            : [...n.querySelectorAll<HTMLElement>('.mantine-Notification-root')];
          for (const root of roots) seen.push(root.innerText);
        });
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

const notices = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notices: string[] }).__notices);

/** The page's calls of a path, counted from now on. */
function countCalls(page: Page, path: string): { count: () => number } {
  let n = 0;
  page.on('request', (r: Request) => {
    if (new URL(r.url()).pathname === path) n += 1;
  });
  return { count: () => n };
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
}

test('switching chats quickly and sending texts in a row raise no notification', async ({
  page,
  parley,
  freshSeat,
}) => {
  const { chats } = await seedChats(parley, freshSeat, 10);
  await recordNotifications(page);
  await signIn(page, freshSeat.account, freshSeat.password);
  await builtInGroup(page, 'ungrouped').click();
  await page.getByTestId('time-tab-1').click();
  for (const chat of chats) await expect(userItem(page, chat.session_id)).toBeVisible();

  // A slow link: each answer's body arrives well after its headers, so leaving a chat cancels
  // its record while the body is still coming (what a busy day on a real network does).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 40,
    downloadThroughput: 2_000,
    uploadThroughput: 50_000,
  });

  for (let i = 0; i < 30; i += 1) {
    const chat = chats[i % chats.length]!;
    await userItem(page, chat.session_id).click();
    await expect(userItem(page, chat.session_id)).toHaveAttribute('data-active', 'true');
  }
  const last = chats[29 % chats.length]!;
  await expect(page.getByTestId('message-list')).toBeVisible();

  const texts = Array.from({ length: 10 }, (_, i) => uniqueText(`In a row ${i + 1}`));
  for (const text of texts) {
    await send(page, text);
    await page.waitForTimeout(500); // the operator's pace, not an assertion
  }
  for (const text of texts) {
    await expect(bubble(page, text)).toHaveAttribute('data-status', 'sent', { timeout: 60_000 });
  }
  await expect(userItem(page, last.session_id)).toContainText(texts[9]!, { timeout: 30_000 });

  expect(await notices(page)).toEqual([]);
});

test('one sent text refetches neither the user list nor the group list', async ({
  page,
  parley,
  freshSeat,
}) => {
  const { chats } = await seedChats(parley, freshSeat, 2);
  const chat = chats[0]!;
  await signIn(page, freshSeat.account, freshSeat.password);
  await builtInGroup(page, 'ungrouped').click();
  await page.getByTestId('time-tab-1').click();
  await userItem(page, chat.session_id).click();
  await expect(page.getByTestId('message-list')).toBeVisible();
  await expect(page.getByTestId('realtime-offline')).toHaveCount(0);
  // A first text: the console is settled (its first push, its first fetches) before counting.
  const first = uniqueText('Settling');
  await send(page, first);
  await expect(userItem(page, chat.session_id)).toContainText(first);

  // The 10-second polls pause while the tab is hidden: every request counted below is caused
  // by the send.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const sessions = countCalls(page, '/v1/seat/chat/getGroupInfo');
  const groups = countCalls(page, '/v1/seat/chat/getGroupList');
  const answered = page.waitForResponse((r) => r.url().endsWith('/v1/seat/chat/message'));

  const text = uniqueText('Counted');
  await send(page, text);
  await answered;
  await expect(bubble(page, text)).toHaveAttribute('data-status', 'sent');
  // Only the push moves the chat's row (its last message) without a refetch.
  await expect(userItem(page, chat.session_id)).toContainText(text);
  // A refetch starts in the same task as the cache update: a request made after it is
  // reported after any refetch.
  await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/healthz')),
    page.evaluate(() => fetch('/healthz').then((r) => r.text())),
  ]);

  expect({ getGroupInfo: sessions.count(), getGroupList: groups.count() }).toEqual({
    getGroupInfo: 0,
    getGroupList: 0,
  });
});

test('a wrong password and a duplicate group are toasts, not failed resources', async ({
  page,
  baseURL,
  freshSeat,
}) => {
  const consoleErrors: string[] = [];
  const failed: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });

  await page.goto('/login');
  await fillLogin(page, freshSeat.account, `${freshSeat.password}-wrong`);
  await page.getByTestId('login-submit').click();
  await expect(toast(page, ERROR_MESSAGES[ERROR_CODES.PASSWORD_ERROR])).toBeVisible();

  await login(page, freshSeat.account, freshSeat.password);
  const name = `Twice ${Date.now() % 100_000}`;
  const { token } = await apiLogin(baseURL!, freshSeat.account, freshSeat.password);
  await createGroup(baseURL!, token, name);
  await page.getByTestId('group-create').click();
  await page.getByTestId('group-name-input').fill(name);
  await page.getByTestId('group-save').click();
  await expect(toast(page, ERROR_MESSAGES[ERROR_CODES.DATA_EXISTS])).toBeVisible();

  expect(failed).toEqual([]);
  expect(consoleErrors.filter((e) => e.includes('Failed to load resource'))).toEqual([]);
});
