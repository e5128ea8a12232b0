import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { fillLogin, signIn, storedUserInfo } from '../support/app';
import { DEMO_ADMIN, adminLogin, adminText, errorText } from '../support/admin';
import { bubbles, openChatIn, seedChats } from '../support/seed-chats';

/**
 * Issue 12: the administrator signs in apart from the seats (own route, own stored token), and
 * neither login opens the other's pages. The admin area's code is its own chunks: the seats'
 * /login downloads none of it.
 */
const ADMIN_CODE =
  /\/assets\/(admin|admin-[\w-]+|seats-page|accounts-page|overview-page|audit-page|mantine-admin-styles)-[\w-]+\.(js|css)$/;

function recordAssets(page: Page): string[] {
  const paths: string[] = [];
  page.on('response', (res) => {
    const type = res.request().resourceType();
    if (type === 'script' || type === 'stylesheet') paths.push(new URL(res.url()).pathname);
  });
  return paths;
}

test("the seats' login screen loads none of the admin console", async ({ page }) => {
  const assets = recordAssets(page);
  await page.goto('/login');
  await expect(page.getByTestId('login-submit')).toBeEnabled();
  await page.waitForLoadState('networkidle');
  expect(assets.filter((p) => ADMIN_CODE.test(p))).toEqual([]);
});

// Issue 25: the open chat once shared a chunk with the admin console (a Mantine component both
// use), so a seat's first chat fetched and ran all of it: a 50 ms task in the first switch.
test("a seat's console and its open chat load none of the admin console", async ({
  page,
  parley,
  freshSeat,
}) => {
  const { chats } = await seedChats(parley, freshSeat, 1);
  const assets = recordAssets(page);
  await signIn(page, freshSeat.account, freshSeat.password);
  await openChatIn(page, chats[0]!.group_id, chats[0]!.session_id);
  await expect(bubbles(page, `Hello from ${chats[0]!.receiver_phone}`)).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  expect(assets.some((p) => /\/assets\/open-chat-[\w-]+\.js$/.test(p))).toBe(true);
  expect(assets.filter((p) => ADMIN_CODE.test(p))).toEqual([]);
});

test('an admin login opens the admin console only; a seat login never opens it', async ({
  page,
  freshSeat,
}) => {
  // The admin pages ask for the admin login, keeping where the administrator was going.
  await page.goto('/admin/seats');
  await expect(page).toHaveURL(/\/admin\/login\?redirect=%2Fadmin%2Fseats$/);
  await expect(page.getByTestId('admin-login-title')).toHaveText(adminText('en', 'login.title'));

  // A seat's password is no admin's: the coded error, translated.
  await page.getByTestId('admin-login-account').fill(freshSeat.account);
  await page.getByTestId('admin-login-password').fill(freshSeat.password);
  await page.getByTestId('admin-login-submit').click();
  await expect(page.getByTestId('admin-login-error')).toHaveText(errorText('en', '200001'));

  await page.getByTestId('admin-login-account').fill(DEMO_ADMIN.account);
  await page.getByTestId('admin-login-password').fill(DEMO_ADMIN.password);
  await page.getByTestId('admin-login-submit').click();
  await expect(page).toHaveURL(/\/admin\/seats$/);
  await expect(page.getByTestId('admin-account')).toHaveText(DEMO_ADMIN.account);
  await expect(page).toHaveTitle(
    `${adminText('en', 'routes.seats')} · ${adminText('en', 'appName')}`,
  );
  // Stored apart from the seat's userInfo: the seat console still asks for a seat login.
  expect(await storedUserInfo(page)).toBeNull();
  await page.goto('/home/chat');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  // The admin's password on the seats' login is refused too.
  await fillLogin(page, DEMO_ADMIN.account, DEMO_ADMIN.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/login/);
  // ...and the admin login, untouched by the seat screens, still opens the admin console.
  await page.goto('/admin/overview');
  await expect(page.getByTestId('admin-shell')).toBeVisible();
  await expect(page.getByTestId('overview-totals')).toBeVisible();

  // Signing out of the admin console leaves it for its login.
  await page.getByTestId('admin-logout').click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto('/admin/overview');
  await expect(page).toHaveURL(/\/admin\/login\?redirect=/);

  // A signed-in seat does not get the admin pages either.
  await signIn(page, freshSeat.account, freshSeat.password);
  await page.goto('/admin/audit');
  await expect(page).toHaveURL(/\/admin\/login\?redirect=%2Fadmin%2Faudit$/);
  // Even with the seat's token put where the admin's goes, the server refuses it (400002):
  // the console goes back to the admin login, saying why.
  const info = await storedUserInfo(page);
  await page.evaluate(
    (token) =>
      window.localStorage.setItem(
        'parleyAdmin',
        JSON.stringify({ token, account: 'forged', expires_at: Date.now() + 60_000 }),
      ),
    info!.token,
  );
  await page.goto('/admin/seats');
  await expect(page).toHaveURL(/\/admin\/login\?expired=1&redirect=%2Fadmin%2Fseats$/);
  await expect(page.getByTestId('admin-login-expired')).toHaveText(
    adminText('en', 'login.expired'),
  );
});

test('the admin console in dark theme and another language, by keyboard', async ({ page }) => {
  await adminLogin(page);
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.getByTestId('language-switcher').click();
  await page.locator('[data-lang="ru"]:not([data-testid="language-switcher"])').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByTestId('admin-nav-audit')).toHaveText(adminText('ru', 'routes.audit'));
  // The sections are links in a labelled navigation; the tables have names and column headers.
  const nav = page.getByRole('navigation', { name: adminText('ru', 'nav.label') });
  await nav.getByRole('link', { name: adminText('ru', 'routes.seats') }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/seats$/);
  const table = page.getByRole('table', { name: adminText('ru', 'routes.seats') });
  await expect(
    table.getByRole('columnheader', { name: adminText('ru', 'seats.columns.account') }),
  ).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'demo' }).first()).toBeVisible();
});
