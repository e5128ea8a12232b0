import { test, expect } from '../support/fixtures';
import { signIn } from '../support/app';
import { adminLogin } from '../support/admin';
import { tr } from '../support/locales';

/**
 * Issue 37: both consoles follow the system's light or dark setting (the browser's
 * prefers-color-scheme) until the user picks a theme; the pick then holds whatever the system says.
 */
const scheme = (page: import('@playwright/test').Page) =>
  page.locator('html').getAttribute('data-mantine-color-scheme');

test.describe('a system in dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test("the operator's console starts dark, follows the system, and keeps the operator's pick", async ({
    page,
    freshSeat,
  }) => {
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await signIn(page, freshSeat.account, freshSeat.password);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    // Nothing picked yet: the system turning light turns the console light.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');

    // The operator information dialog shows "System" as the setting, then the operator picks Light.
    await page.getByTestId('user-menu').click();
    const theme = page.getByTestId('operator-theme');
    await expect(theme.locator('input[value="auto"]')).toBeChecked();
    await theme.getByText(tr('en', 'Light', 'operator')).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.reload();
    await expect(page.getByTestId('user-list')).toBeVisible();
    expect(await scheme(page)).toBe('light');
  });

  test("the owner's console starts dark, and its toggle's pick holds after a reload", async ({
    page,
  }) => {
    await adminLogin(page);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme', 'dark');
    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.reload();
    await expect(page.getByTestId('admin-shell')).toBeVisible();
    expect(await scheme(page)).toBe('light');
  });
});

test.describe('a system in light mode', () => {
  test.use({ colorScheme: 'light' });

  test('both consoles start light', async ({ page }) => {
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await adminLogin(page);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  });
});
