import type { Page } from '@playwright/test';
import {
  GROUP_LIST_POLL_MS,
  OTHER_MESSAGES,
  EXPIRED_MODAL_RESET_MS,
  type CallPath,
} from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import { CHAT_URL, signIn, storedUserInfo } from '../support/app';
import { jumpToPoll } from '../support/clock';

const GROUP_LIST_PATH: CallPath = '/v1/seat/chat/getGroupList';

/**
 * Replaces the token inside the stored userInfo (as if it had expired or been revoked);
 * answers the token now stored.
 */
async function corruptStoredToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const raw = window.localStorage.getItem('userInfo');
    if (raw === null) throw new Error('no userInfo stored');
    const info = JSON.parse(raw) as { token: string };
    const token = `${info.token.slice(0, 8)}-expired-by-e2e`;
    window.localStorage.setItem('userInfo', JSON.stringify({ ...info, token }));
    return token;
  });
}

/**
 * Lets the group-list poll fire (fake clock) and waits for its answer to a request carrying
 * `token` (not a fetch of the console's start still in flight with the good one).
 */
async function nextPoll(page: Page, token: string): Promise<void> {
  await jumpToPoll(
    page,
    GROUP_LIST_PATH,
    GROUP_LIST_POLL_MS + EXPIRED_MODAL_RESET_MS,
    (r) => r.headers()['authorization'] === token,
  );
}

test.describe('the expired-login dialog', () => {
  test.beforeEach(async ({ page, freshSeat }) => {
    // A fake clock that runs normally until the test jumps it forward to the next poll.
    await page.clock.install();
    await signIn(page, freshSeat.account, freshSeat.password);
  });

  test('shows once for an expired token; confirming logs out to /login', async ({ page }) => {
    const translate = JSON.stringify({ sourceLanguage: 'EN', targetLanguage: 'RU' });
    await page.evaluate((t) => window.localStorage.setItem('translate', t), translate);
    const token = await corruptStoredToken(page);
    await page.reload();

    const modal = page.getByTestId('login-expired-modal');
    await expect(modal).toBeVisible();
    await expect(modal).toContainText(OTHER_MESSAGES.loginExpired);
    await expect(modal).toHaveCount(1);

    // Further failing calls (the 10 s poll) do not open a second dialog.
    await nextPoll(page, token);
    // Give a second dialog the time to render (it must not).
    await page.waitForTimeout(500);
    await expect(modal).toHaveCount(1);

    const stored = await page.evaluate(() => window.localStorage.getItem('translate'));
    expect(stored).not.toBeNull();
    await modal.getByTestId('confirm-ok').click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-username')).toBeVisible();
    await expect(page.getByTestId('login-expired-modal')).toHaveCount(0);
    expect(await storedUserInfo(page)).toBeNull();
    // Logout keeps only the translation settings.
    expect(await page.evaluate(() => window.localStorage.getItem('translate'))).toBe(stored);
  });

  test('the 10 s poll finds an expired token; dismissing closes the dialog until the next failing call', async ({
    page,
  }) => {
    const modal = page.getByTestId('login-expired-modal');
    await expect(modal).toHaveCount(0);
    // No reload: the next group-list poll carries the bad token.
    const token = await corruptStoredToken(page);
    await nextPoll(page, token);
    await expect(modal).toBeVisible();
    await expect(modal).toContainText(OTHER_MESSAGES.loginExpired);
    await expect(page).toHaveURL(CHAT_URL);

    await modal.getByTestId('confirm-cancel').click();
    await expect(modal).toHaveCount(0);

    await nextPoll(page, token);
    await expect(modal).toBeVisible();
    await expect(modal).toHaveCount(1);
  });
});
