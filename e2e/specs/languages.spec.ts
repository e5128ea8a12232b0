import type { Page } from '@playwright/test';
import { BUILT_IN_GROUP_NAMES, ERROR_CODES, ERROR_MESSAGES } from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import { fillLogin, signIn, switchLanguage, toast } from '../support/app';
import { tr, type UiLang } from '../support/locales';

/** The translatable texts of the login screen, as shown. */
async function loginTexts(page: Page): Promise<string[]> {
  await expect(page.getByTestId('login-slogan')).toHaveCount(3);
  const texts = [
    await page.getByTestId('login-subtitle').innerText(),
    await page.getByTestId('login-submit').innerText(),
    ...(await page.getByTestId('login-slogan').allInnerTexts()),
  ];
  return texts.map((t) => t.trim());
}

async function expectLoginIn(page: Page, lang: UiLang, english: string[]): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  const expected = english.map((text) => tr(lang, text, 'login'));
  await expect.poll(() => loginTexts(page)).toEqual(expected);
}

/** The console's texts that follow the language: the built-in group names. */
async function expectConsoleIn(page: Page, lang: UiLang): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  for (const [type, english] of Object.entries(BUILT_IN_GROUP_NAMES)) {
    await expect(
      page
        .locator(`[data-testid="group-item"][data-group-type="${type}"]`)
        .getByTestId('group-name'),
    ).toHaveText(tr(lang, english, 'groups'));
  }
}

test.describe('the four UI languages', () => {
  test('the login screen switches among zh-CN, pt, ru and en', async ({ page }) => {
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const english = await loginTexts(page);

    for (const lang of ['zh-CN', 'pt', 'ru', 'en'] as const) {
      await switchLanguage(page, lang);
      await expectLoginIn(page, lang, english);
      if (lang !== 'en') expect(await loginTexts(page)).not.toEqual(english);
    }
  });

  test('a language picked on the login screen survives reloads of /login', async ({ page }) => {
    await page.goto('/login');
    const english = await loginTexts(page);
    for (const lang of ['zh-CN', 'pt', 'ru', 'en'] as const) {
      await switchLanguage(page, lang);
      // Twice: the choice must still be stored after the first reload, not only applied.
      await page.reload();
      await expectLoginIn(page, lang, english);
      await page.reload();
      await expectLoginIn(page, lang, english);
    }
  });

  test('a language picked on the login screen carries into the console', async ({
    page,
    freshSeat,
  }) => {
    await page.goto('/login');
    await switchLanguage(page, 'ru');
    await fillLogin(page, freshSeat.account, freshSeat.password);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('group-list')).toBeVisible();
    await expectConsoleIn(page, 'ru');
  });

  test('the console switches among zh-CN, pt, ru and en, and keeps the choice', async ({
    page,
    freshSeat,
  }) => {
    await signIn(page, freshSeat.account, freshSeat.password);
    await expectConsoleIn(page, 'en');
    for (const lang of ['zh-CN', 'pt', 'ru', 'en'] as const) {
      await switchLanguage(page, lang);
      await expectConsoleIn(page, lang);
      await page.reload();
      await expectConsoleIn(page, lang);
    }
  });

  test('an error toast is translated (wrong password in Russian)', async ({ page, freshSeat }) => {
    await page.goto('/login');
    await switchLanguage(page, 'ru');
    await fillLogin(page, freshSeat.account, `${freshSeat.password}-wrong`);
    await page.getByTestId('login-submit').click();
    const message = tr('ru', ERROR_MESSAGES[ERROR_CODES.PASSWORD_ERROR], 'errors');
    expect(message).not.toBe(ERROR_MESSAGES[ERROR_CODES.PASSWORD_ERROR]);
    await expect(toast(page, message)).toBeVisible();
  });
});

test.describe('a Portuguese browser', () => {
  test.use({ locale: 'pt-BR' });

  test('starts in Portuguese when no language is saved', async ({ page }) => {
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt');
    const portuguese = await loginTexts(page);
    // Compare with the English texts of the same screen.
    await switchLanguage(page, 'en');
    const english = await loginTexts(page);
    expect(portuguese).toEqual(english.map((text) => tr('pt', text, 'login')));
    expect(portuguese).not.toEqual(english);
  });
});
