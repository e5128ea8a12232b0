import { test, expect } from '../support/fixtures';
import { apiLogin } from '../support/api';
import { CHAT_URL, fillLogin, signIn, storedUserInfo } from '../support/app';

/** The path and `redirect` query of the current URL. */
function loginRedirect(url: string): { pathname: string; redirect: string | null } {
  const u = new URL(url);
  return { pathname: u.pathname, redirect: u.searchParams.get('redirect') };
}

test.describe('route rules without a token', () => {
  test('/ redirects to /login', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-username')).toBeVisible();
  });

  test('/home/chat redirects to /login?redirect=/home/chat and back after login', async ({
    page,
    freshSeat,
  }) => {
    await page.goto('/home/chat');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    expect(loginRedirect(page.url())).toEqual({ pathname: '/login', redirect: '/home/chat' });
    await fillLogin(page, freshSeat.account, freshSeat.password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(CHAT_URL);
    await expect(page.getByTestId('group-list')).toBeVisible();
  });

  test('the redirect keeps the requested path (/home/addressBook)', async ({ page, freshSeat }) => {
    await page.goto('/home/addressBook');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    expect(loginRedirect(page.url())).toEqual({
      pathname: '/login',
      redirect: '/home/addressBook',
    });
    await fillLogin(page, freshSeat.account, freshSeat.password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/home\/addressBook$/);
  });

  test('any other path without a token redirects to /login with that path', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    expect(loginRedirect(page.url())).toEqual({ pathname: '/login', redirect: '/no/such/page' });
  });

  test('/ban-page opens without a token', async ({ page }) => {
    await page.goto('/ban-page');
    await expect(page.getByTestId('ban-message')).toBeVisible();
    await expect(page).toHaveURL(/\/ban-page$/);
  });

  test('/auth with a real token signs in and continues to the redirect', async ({
    page,
    baseURL,
    freshSeat,
  }) => {
    const info = await apiLogin(baseURL!, freshSeat.account, freshSeat.password);
    await page.goto(
      `/auth?token=${encodeURIComponent(info.token)}&redirect=${encodeURIComponent('/home/chat')}`,
    );
    await expect(page).toHaveURL(CHAT_URL);
    await expect(page.getByTestId('group-list')).toBeVisible();
    const stored = await storedUserInfo(page);
    expect(stored?.token).toBe(info.token);
    expect(stored?.account).toBe(freshSeat.account);
  });

  // A bad token: specs/auth-link.spec.ts.
});

test.describe('route rules with a token', () => {
  test.beforeEach(async ({ page, freshSeat }) => {
    await signIn(page, freshSeat.account, freshSeat.password);
  });

  test('/home redirects to /home/chat', async ({ page }) => {
    await page.goto('/home');
    await expect(page).toHaveURL(CHAT_URL);
    await expect(page.getByTestId('group-list')).toBeVisible();
  });

  test('an unknown path shows the not-found screen with a way back', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page).toHaveURL(/\/no\/such\/page$/);
    await page.getByTestId('not-found-home').click();
    await expect(page).toHaveURL(CHAT_URL);
    await expect(page.getByTestId('group-list')).toBeVisible();
    expect(await storedUserInfo(page)).not.toBeNull();
  });

  test('visiting /login logs out without a page reload', async ({ page }) => {
    expect(await storedUserInfo(page)).not.toBeNull();
    // A marker on the window object survives only if the document is not reloaded.
    await page.evaluate(() => {
      (window as unknown as { __e2eMarker: string }).__e2eMarker = 'still-here';
    });
    // An in-app visit: history navigation that the router follows (like the Back button).
    await page.evaluate(() => {
      window.history.pushState({}, '', '/login');
      window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
    });
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-username')).toBeVisible();
    await expect.poll(() => storedUserInfo(page)).toBeNull();
    expect(
      await page.evaluate(() => (window as unknown as { __e2eMarker?: string }).__e2eMarker),
    ).toBe('still-here');
    // Logged out for real: the console now asks for a login again.
    await page.goto('/home/chat');
    await expect(page).toHaveURL(/\/login\?redirect=/);
  });

  test('logging out from the user menu forgets the session and returns to /login', async ({
    page,
    freshSeat,
  }) => {
    await expect(page.getByTestId('user-menu')).toContainText(freshSeat.nickname);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-username')).toBeVisible();
    expect(await storedUserInfo(page)).toBeNull();
    await page.goto('/home/chat');
    await expect(page).toHaveURL(/\/login\?redirect=/);
  });
});
