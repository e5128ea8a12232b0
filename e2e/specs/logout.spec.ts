import type { Page } from '@playwright/test';
import { OTHER_MESSAGES } from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import { ApiError, call } from '../support/api';
import { CHAT_URL, signIn, storedUserInfo } from '../support/app';

const LOGOUT_PATH = '/v1/seat/chat/logout';
const TRANSLATE = JSON.stringify({ sourceLanguage: 'EN', targetLanguage: 'RU' });

/** The stored token of a signed-in console (read before it logs out). */
async function storedToken(page: Page): Promise<string> {
  const info = await storedUserInfo(page);
  if (!info) throw new Error('not signed in');
  return info.token;
}

/** What the server answers a call of `token`: its code. */
async function codeFor(baseURL: string, token: string): Promise<string> {
  try {
    await call(baseURL, '/v1/seat/chat/getGroupList', {}, token);
    return '000000';
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    throw err;
  }
}

async function openOperatorDialog(page: Page) {
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('operator-info')).toBeVisible();
}

const storedTranslate = (page: Page) =>
  page.evaluate(() => window.localStorage.getItem('translate'));

/** Logs out with `click`: back on the login screen, signed out, translation settings kept. */
async function expectLogoutBy(page: Page, click: () => Promise<void>) {
  const translate = await storedTranslate(page);
  expect(translate).toContain('"targetLanguage":"RU"');
  await click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('login-username')).toBeVisible();
  expect(await storedUserInfo(page)).toBeNull();
  // Logout keeps only the translation settings (spec section 4); the reloaded app fills in
  // the defaults of what was never set.
  expect(JSON.parse((await storedTranslate(page)) ?? 'null')).toMatchObject(
    JSON.parse(translate!) as Record<string, unknown>,
  );
}

test.describe('logout', () => {
  test.beforeEach(async ({ page, freshSeat }) => {
    await signIn(page, freshSeat.account, freshSeat.password);
    await page.evaluate((t) => window.localStorage.setItem('translate', t), TRANSLATE);
  });

  test('logging out in the console ends the login on the server', async ({ page, baseURL }) => {
    const token = await storedToken(page);
    expect(await codeFor(baseURL!, token)).toBe('000000');

    await openOperatorDialog(page);
    await expectLogoutBy(page, () => page.getByTestId('logout').click());

    // The token read before logging out is refused from now on.
    expect(await codeFor(baseURL!, token)).toBe('400002');
  });

  test('logout still leaves when the server cannot be reached', async ({ page, baseURL }) => {
    const token = await storedToken(page);
    await page.route(`**${LOGOUT_PATH}`, (route) => route.abort('connectionrefused'));
    await openOperatorDialog(page);
    await expectLogoutBy(page, () => page.getByTestId('logout').click());
    // The server never heard of it: the login ends at its expiry instead.
    expect(await codeFor(baseURL!, token)).toBe('000000');
  });

  test('logout does not hang when the server never answers', async ({ page }) => {
    // Held forever: only logout's own time limit lets the console leave.
    await page.route(`**${LOGOUT_PATH}`, () => undefined);
    await openOperatorDialog(page);
    await expectLogoutBy(page, () => page.getByTestId('logout').click());
  });
});

test.describe('log out of every device', () => {
  test('asks first; confirmed, every console of the seat is signed out and another seat stays', async ({
    page,
    browser,
    baseURL,
    freshSeat,
    createSeat,
  }) => {
    // The same seat in a second browser (its own storage: a second login, a second token).
    const other = await browser.newContext({ baseURL });
    const otherPage = await other.newPage();
    const neighbour = await createSeat();
    try {
      await signIn(page, freshSeat.account, freshSeat.password);
      await page.evaluate((t) => window.localStorage.setItem('translate', t), TRANSLATE);
      await signIn(otherPage, freshSeat.account, freshSeat.password);
      const here = await storedToken(page);
      const there = await storedToken(otherPage);
      expect(there).not.toBe(here);
      const neighbourToken = (
        await call(baseURL!, '/v1/seat/chat/login', {
          account: neighbour.account,
          password: neighbour.password,
        })
      ).token;

      // Cancelling the confirmation changes nothing.
      await openOperatorDialog(page);
      await page.getByTestId('logout-all').click();
      const confirm = page.getByTestId('logout-all-confirm');
      await expect(confirm).toBeVisible();
      await confirm.getByTestId('confirm-cancel').click();
      await expect(page.getByTestId('operator-info')).toBeVisible();
      expect(await codeFor(baseURL!, here)).toBe('000000');

      await page.getByTestId('logout-all').click();
      await expectLogoutBy(page, () => confirm.getByTestId('confirm-ok').click());

      // The other console is told at once (its push socket closes with 400002).
      const expired = otherPage.getByTestId('login-expired-modal');
      await expect(expired).toBeVisible();
      await expect(expired).toContainText(OTHER_MESSAGES.loginExpired);
      await expect(otherPage).toHaveURL(CHAT_URL);

      expect(await codeFor(baseURL!, here)).toBe('400002');
      expect(await codeFor(baseURL!, there)).toBe('400002');
      expect(await codeFor(baseURL!, neighbourToken)).toBe('000000');

      // Confirming the dialog there returns it to the login screen.
      await expired.getByTestId('confirm-ok').click();
      await expect(otherPage).toHaveURL(/\/login$/);
      expect(await storedUserInfo(otherPage)).toBeNull();
    } finally {
      await other.close();
    }
  });
});
