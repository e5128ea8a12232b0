import type { Locator, Page } from '@playwright/test';
import { SUCCESS_CODE, type ApiEnvelope, type UserInfo } from '@parley/protocol';
import { expect } from './fixtures';

/** The chat console, with or without an open chat (?chat=<session_id>). */
export const CHAT_URL = /\/home\/chat(\?chat=\d+)?$/;

/**
 * Signs in through the login screen and waits for the chat console: for tests where the
 * login form is part of the story (another operator signing in in the same browser, a login
 * after a logout). Tests that only need a signed-in console use `signIn`.
 */
export async function login(page: Page, account: string, password: string): Promise<void> {
  await page.goto('/login');
  await fillLogin(page, account, password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(CHAT_URL);
  await expect(page.getByTestId('group-list')).toBeVisible();
}

/**
 * Opens the chat console signed in, without the login form: the seat logs in through the API
 * (the page's own request context, so its baseURL) and the page opens the /auth hand-off
 * with that token, which stores it as the login screen would and continues to the console.
 * One page load instead of the login screen's load, two fields and a throttled button.
 * For a page that has not opened the console yet (the hand-off keeps nothing of a previous
 * operator's stored state, as visiting /login would): a second operator uses `login`.
 */
export async function signIn(page: Page, account: string, password: string): Promise<void> {
  const res = await page.request.post('/v1/seat/chat/login', { data: { account, password } });
  const envelope = (await res.json()) as ApiEnvelope<UserInfo>;
  if (envelope.code !== SUCCESS_CODE) {
    throw new Error(`login of ${account} answered ${envelope.code}: ${envelope.msg}`);
  }
  const token = encodeURIComponent(envelope.data.token);
  await page.goto(`/auth?token=${token}&redirect=%2Fhome%2Fchat`);
  await expect(page).toHaveURL(CHAT_URL);
  await expect(page.getByTestId('group-list')).toBeVisible();
}

export async function fillLogin(page: Page, account: string, password: string): Promise<void> {
  await page.getByTestId('login-username').fill(account);
  await page.getByTestId('login-password').fill(password);
}

/**
 * The Mantine error text of an input: rendered as `<id>-error` and named by the input's
 * aria-describedby (which Mantine sets only while there is an error).
 */
export async function fieldError(input: Locator): Promise<Locator> {
  await expect(input).toHaveAttribute('aria-describedby', /-error(\s|$)/);
  const describedBy = (await input.getAttribute('aria-describedby')) ?? '';
  const errorId = describedBy.split(/\s+/).find((id) => id.endsWith('-error'));
  const error = input.page().locator(`[id="${errorId}"]`);
  await expect(error).toBeVisible();
  return error;
}

/** The input shows no error text. */
export async function expectNoFieldError(input: Locator): Promise<void> {
  await expect(input).not.toHaveAttribute('aria-describedby', /-error(\s|$)/);
}

/** An error toast (Mantine notification) with exactly this message. */
export function toast(page: Page, message: string): Locator {
  return page
    .locator('.mantine-Notification-root')
    .filter({ has: page.getByText(message, { exact: true }) });
}

/** The stored user info (localStorage `userInfo`, JSON), or null. */
export async function storedUserInfo(page: Page): Promise<UserInfo | null> {
  const raw = await page.evaluate(() => window.localStorage.getItem('userInfo'));
  return raw === null ? null : (JSON.parse(raw) as UserInfo);
}

/**
 * Expects an unread badge to show exactly `count` (the contract: badges are absent when 0 and
 * otherwise show the exact number).
 */
export async function expectBadge(badge: Locator, count: number): Promise<void> {
  if (count === 0) {
    await expect(badge).toHaveCount(0);
  } else {
    await expect(badge).toHaveText(String(count));
  }
}

export function groupItem(page: Page, groupId: number): Locator {
  return page.locator(`[data-testid="group-item"][data-group-id="${groupId}"]`);
}

export function userItem(page: Page, sessionId: number): Locator {
  return page.locator(`[data-testid="user-item"][data-session-id="${sessionId}"]`);
}

/**
 * Scrolls the virtualised user list until the chat's row is rendered, and returns it.
 */
export async function revealUserItem(page: Page, sessionId: number): Promise<Locator> {
  const item = userItem(page, sessionId);
  const list = page.getByTestId('user-list');
  await expect(list.getByTestId('user-item').first()).toBeVisible();
  await expect
    .poll(
      async () => {
        if (await item.isVisible()) return true;
        await list.hover();
        await page.mouse.wheel(0, 300);
        return false;
      },
      { message: `user-item of session ${sessionId} is rendered`, timeout: 30_000 },
    )
    .toBe(true);
  return item;
}

/** Picks a UI language with the language switcher (contract: options carry `data-lang`). */
export async function switchLanguage(page: Page, lang: string): Promise<void> {
  const switcher = page.getByTestId('language-switcher');
  const tag = await switcher.evaluate((el) => el.tagName);
  if (tag === 'SELECT') {
    const value = await switcher
      .locator(`option[data-lang="${lang}"]`)
      .evaluate((el) => (el as HTMLOptionElement).value);
    await switcher.selectOption(value);
  } else {
    await switcher.click();
    await page.locator(`[data-lang="${lang}"]:not([data-testid="language-switcher"])`).click();
  }
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}
