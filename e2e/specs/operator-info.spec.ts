import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { signIn, storedUserInfo } from '../support/app';
import { tr } from '../support/locales';

async function openOperatorInfo(page: Page) {
  await page.getByTestId('user-menu').click();
  const dialog = page.getByTestId('operator-info');
  await expect(dialog).toBeVisible();
  return dialog;
}

function phones(page: Page) {
  return page
    .getByTestId('operator-phone-account')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-phone')));
}

test.describe('operator information', () => {
  test('shows the seat and the phone accounts assigned after login, fetched fresh', async ({
    page,
    parley,
    freshSeat,
  }) => {
    await signIn(page, freshSeat.account, freshSeat.password);
    let dialog = await openOperatorInfo(page);
    await expect(dialog.getByTestId('operator-nickname')).toHaveText(freshSeat.nickname);
    await expect(dialog.getByTestId('operator-account')).toHaveText(freshSeat.account);
    await expect.poll(() => phones(page)).toEqual([freshSeat.phone]);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    // An administrator assigns another account while the operator is signed in.
    const added = `+1555${String(randomBytes(4).readUInt32BE() % 1e8).padStart(8, '0')}`;
    await parley.cli('account:add', added, '--label', 'Night line');
    await parley.cli('account:assign', added, freshSeat.account);

    dialog = await openOperatorInfo(page);
    await expect.poll(() => phones(page)).toEqual(expect.arrayContaining([freshSeat.phone, added]));
    await expect.poll(async () => (await phones(page)).length).toBe(2);
    await expect(
      page.locator(`[data-testid="operator-phone-account"][data-phone="${added}"]`),
    ).toContainText('Night line');
    // The stored copy of the user info follows.
    await expect
      .poll(async () => (await storedUserInfo(page))?.phone_accounts.map((p) => p.send_phone))
      .toEqual(expect.arrayContaining([freshSeat.phone, added]));
  });

  test('switches the UI language and the theme, and logs out', async ({ page, freshSeat }) => {
    await signIn(page, freshSeat.account, freshSeat.password);
    const dialog = await openOperatorInfo(page);
    await dialog.getByTestId('operator-language').getByText('Русский').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    await expect(page.getByRole('dialog')).toContainText(tr('ru', 'Operator information'));
    await expect(dialog.getByTestId('logout')).toHaveText(tr('ru', 'Log out', 'operator'));
    // Remembered: still Russian after a reload.
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');

    const again = await openOperatorInfo(page);
    await again
      .getByTestId('operator-theme')
      .getByText(tr('ru', 'Dark', 'operator'))
      .click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await again
      .getByTestId('operator-theme')
      .getByText(tr('ru', 'Light', 'operator'))
      .click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await again.getByTestId('operator-language').getByText('English').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    await again.getByTestId('logout').click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-username')).toBeVisible();
    expect(await storedUserInfo(page)).toBeNull();
  });
});
