import type { Page, Request } from '@playwright/test';
import { CLICK_THROTTLE_MS, ERROR_MESSAGES, ERROR_CODES } from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import {
  CHAT_URL,
  expectNoFieldError,
  fieldError,
  fillLogin,
  storedUserInfo,
  toast,
} from '../support/app';

const LOGIN_PATH = '/v1/seat/chat/login';

/** Records the login calls the page sends. */
function recordLoginCalls(page: Page): Request[] {
  const calls: Request[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === LOGIN_PATH) calls.push(req);
  });
  return calls;
}

test.describe('login screen', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/login');
  });

  test('shows the title, subtitle, fields, button and three slogans', async ({ page }) => {
    await expect(page.getByTestId('login-title')).toBeVisible();
    await expect(page.getByTestId('login-title')).not.toHaveText('');
    await expect(page.getByTestId('login-subtitle')).toBeVisible();
    await expect(page.getByTestId('login-username')).toBeVisible();
    await expect(page.getByTestId('login-password')).toBeVisible();
    await expect(page.getByTestId('login-submit')).toBeEnabled();
    await expect(page.getByTestId('login-slogan')).toHaveCount(3);
  });

  test('an empty username is required and nothing is sent', async ({ page, freshSeat }) => {
    const calls = recordLoginCalls(page);
    await page.getByTestId('login-password').fill(freshSeat.password);
    await page.getByTestId('login-submit').click();
    const error = await fieldError(page.getByTestId('login-username'));
    await expect(error).toBeVisible();
    await expect(error).toHaveText(/username/i);
    await expect(page).toHaveURL(/\/login$/);
    expect(calls).toHaveLength(0);
  });

  test('a whitespace-only username is required (trimmed)', async ({ page, freshSeat }) => {
    const calls = recordLoginCalls(page);
    await fillLogin(page, '    ', freshSeat.password);
    await page.getByTestId('login-submit').click();
    const error = await fieldError(page.getByTestId('login-username'));
    await expect(error).toHaveText(/username/i);
    expect(calls).toHaveLength(0);
  });

  test('an empty password is required and nothing is sent', async ({ page, freshSeat }) => {
    const calls = recordLoginCalls(page);
    await page.getByTestId('login-username').fill(freshSeat.account);
    await page.getByTestId('login-submit').click();
    const error = await fieldError(page.getByTestId('login-password'));
    await expect(error).toBeVisible();
    await expect(error).toHaveText(/password/i);
    // The username was fine: no error on it.
    await expectNoFieldError(page.getByTestId('login-username'));
    expect(calls).toHaveLength(0);
  });

  test('the username is trimmed before sending', async ({ page, freshSeat }) => {
    const calls = recordLoginCalls(page);
    await fillLogin(page, `  ${freshSeat.account}  `, freshSeat.password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(CHAT_URL);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.postDataJSON()).toMatchObject({ account: freshSeat.account });
    expect((await storedUserInfo(page))?.account).toBe(freshSeat.account);
  });

  test('a wrong password shows "Password error"', async ({ page, freshSeat }) => {
    await fillLogin(page, freshSeat.account, `${freshSeat.password}-wrong`);
    await page.getByTestId('login-submit').click();
    await expect(toast(page, ERROR_MESSAGES[ERROR_CODES.PASSWORD_ERROR])).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedUserInfo(page)).toBeNull();
  });

  test('an unknown account shows "User does not exist"', async ({ page }) => {
    await fillLogin(page, `nobody_${Date.now()}`, 'whatever-password');
    await page.getByTestId('login-submit').click();
    await expect(toast(page, ERROR_MESSAGES[ERROR_CODES.USER_NOT_FOUND])).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a frozen seat shows "Cannot login, account is frozen"', async ({
    page,
    parley,
    freshSeat,
  }) => {
    await parley.cli('seat:freeze', freshSeat.account);
    await fillLogin(page, freshSeat.account, freshSeat.password);
    await page.getByTestId('login-submit').click();
    await expect(toast(page, ERROR_MESSAGES[ERROR_CODES.ACCOUNT_FROZEN])).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedUserInfo(page)).toBeNull();
  });

  test('the login button is disabled for a moment after a click (click throttle)', async ({
    page,
    freshSeat,
  }) => {
    const submit = page.getByTestId('login-submit');
    await fillLogin(page, freshSeat.account, `${freshSeat.password}-wrong`);
    // Timed inside the page: when the click landed and when `disabled` changed.
    await submit.evaluate((button: HTMLButtonElement) => {
      const log: { at: number; disabled: boolean }[] = [];
      (window as unknown as { throttleLog: typeof log }).throttleLog = log;
      button.addEventListener('click', () => log.push({ at: performance.now(), disabled: false }), {
        capture: true,
      });
      new MutationObserver(() =>
        log.push({ at: performance.now(), disabled: button.disabled }),
      ).observe(button, { attributes: true, attributeFilter: ['disabled'] });
    });
    await submit.click();
    await expect(toast(page, ERROR_MESSAGES[ERROR_CODES.PASSWORD_ERROR])).toBeVisible();
    await expect(submit).toBeEnabled({ timeout: CLICK_THROTTLE_MS + 2_000 });
    const log = await page.evaluate(
      () => (window as unknown as { throttleLog: { at: number; disabled: boolean }[] }).throttleLog,
    );
    const clickedAt = log[0]!.at;
    const firstDisabled = log.find((e) => e.disabled);
    expect(firstDisabled, 'disabled right after the click').toBeDefined();
    expect(firstDisabled!.at - clickedAt).toBeLessThan(300);
    // Held for the whole throttle although the error answer came back long before, then freed.
    const enabledAfter = log
      .filter((e) => !e.disabled && e.at > firstDisabled!.at)
      .map((e) => e.at - clickedAt);
    expect(enabledAfter.length).toBeGreaterThan(0);
    expect(Math.min(...enabledAfter)).toBeGreaterThanOrEqual(CLICK_THROTTLE_MS - 50);
    expect(Math.min(...enabledAfter)).toBeLessThan(CLICK_THROTTLE_MS + 1_000);
  });
});
