import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { apiLogin, call } from '../support/api';
import { fillLogin, storedUserInfo, switchLanguage } from '../support/app';
import { tr } from '../support/locales';

/** The explanation of a sign-in link that cannot sign anyone in, with the way to log in. */
async function expectInvalidLink(page: Page) {
  const problem = page.getByTestId('auth-problem');
  await expect(problem).toBeVisible();
  await expect(problem).toHaveAttribute('data-reason', 'invalid');
  await expect(page.getByTestId('auth-problem-title')).toHaveText(
    'This sign-in link is invalid or has expired',
  );
  await expect(page.getByTestId('auth-retry')).toHaveCount(0);
  // Said on the page itself: no login-expired dialog, and nothing stored.
  await expect(page.getByTestId('login-expired-modal')).toHaveCount(0);
  expect(await storedUserInfo(page)).toBeNull();
}

test.describe('/auth with a token that cannot sign in', () => {
  test('a bad token explains itself and leads to the login page, which continues to the link’s target', async ({
    page,
    freshSeat,
  }) => {
    await page.goto('/auth?token=not-a-real-token&redirect=%2Fhome%2FaddressBook');
    await expectInvalidLink(page);
    await expect(page).toHaveURL(/\/auth\?/);

    await page.getByTestId('auth-to-login').click();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fhome%2FaddressBook$/);
    await fillLogin(page, freshSeat.account, freshSeat.password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/home\/addressBook$/);
  });

  test('a logged-out token and a missing one say the same', async ({
    page,
    baseURL,
    freshSeat,
  }) => {
    const info = await apiLogin(baseURL!, freshSeat.account, freshSeat.password);
    await call(baseURL!, '/v1/seat/chat/logout', {}, info.token);
    await page.goto(`/auth?token=${encodeURIComponent(info.token)}&redirect=%2Fhome%2Fchat`);
    await expectInvalidLink(page);

    await page.goto('/auth?redirect=%2Fhome%2Fchat');
    await expectInvalidLink(page);
  });

  test('the explanation is translated', async ({ page }) => {
    await page.goto('/login');
    await switchLanguage(page, 'ru');
    await page.goto('/auth?token=not-a-real-token');
    await expect(page.getByTestId('auth-problem-title')).toHaveText(
      tr('ru', 'This sign-in link is invalid or has expired', 'login'),
    );
  });
});
