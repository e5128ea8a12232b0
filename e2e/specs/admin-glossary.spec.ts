import type { Locator, Page } from '@playwright/test';
import { adminLogin, adminSection, adminText } from '../support/admin';
import { signIn } from '../support/app';
import { bubble, openChat, receiveChat } from '../support/chats';
import { expect } from '../support/fixtures';
import { translationTest as test } from '../support/translation';

/**
 * Issue 36: the owner keeps the workspace's glossary and picks the engines of a language pair
 * in the admin console; the operator's translation (the real Apertium APY, Spanish to English)
 * then uses the fixed translation, and says, small, which engine made it.
 */

async function pick(page: Page, select: Locator, search: string, option: string) {
  await select.click();
  await select.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Translation on, Spanish customers, English operator, single mode (as after a reload). */
async function storeSettings(page: Page) {
  await page.goto('/healthz');
  await page.evaluate(() => {
    window.localStorage.setItem(
      'translate',
      JSON.stringify({
        isEnable: true,
        mode: 'single',
        sourceLanguage: 'ES',
        targetLanguage: 'EN',
      }),
    );
  });
}

test('the owner keeps a glossary and picks an engine per pair; the operator sees it applied and which engine made it', async ({
  page,
  browser,
  parley,
  freshSeat,
}) => {
  await adminLogin(page);
  await adminSection(page, 'translation');
  const glossary = page.getByTestId('glossary-section');
  await expect(page.getByTestId('glossary-count')).toHaveText(
    adminText('en', 'glossary.count', { count: 0, max: 10000 }),
  );

  // A pattern without a wildcard is refused with its code, nothing added.
  await glossary.getByTestId('glossary-kind').click();
  await page.getByRole('option', { name: adminText('en', 'glossary.kinds.pattern') }).click();
  await glossary.getByTestId('glossary-term').fill('plain');
  await glossary.getByTestId('glossary-add').click();
  await expect(glossary.getByTestId('admin-action-error')).toHaveAttribute('data-code', '100001');
  await expect(glossary.getByTestId('glossary-row')).toHaveCount(0);

  // A fixed translation, Spanish to English: "casa" is always "home".
  await glossary.getByTestId('glossary-kind').click();
  await page.getByRole('option', { name: adminText('en', 'glossary.kinds.fixed') }).click();
  await glossary.getByTestId('glossary-term').fill('casa');
  await glossary.getByTestId('glossary-translation').fill('home');
  await pick(page, glossary.getByTestId('glossary-source'), 'Span', 'Spanish (ES)');
  await pick(page, glossary.getByTestId('glossary-target'), 'Engl', 'English (EN)');
  await glossary.getByTestId('glossary-add').click();
  const row = glossary.getByTestId('glossary-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('casa');
  await expect(row).toContainText('home');
  await expect(page.getByTestId('glossary-count')).toHaveText(
    adminText('en', 'glossary.count', { count: 1, max: 10000 }),
  );

  // Spanish to English through Apertium alone.
  const engines = page.getByTestId('engine-routes-section');
  await pick(page, engines.getByTestId('route-source'), 'Span', 'Spanish (ES)');
  await pick(page, engines.getByTestId('route-target'), 'Engl', 'English (EN)');
  await engines.getByRole('combobox', { name: adminText('en', 'engines.order') }).click();
  await page.getByRole('option', { name: 'apertium', exact: true }).click();
  await page.keyboard.press('Escape');
  await engines.getByTestId('route-set').click();
  await expect(engines.getByTestId('route-row')).toHaveText(/ES → EN\s*apertium/);

  // Both changes are in the audit log.
  await adminSection(page, 'audit');
  for (const action of ['glossary.add', 'engine_route.set']) {
    await expect(page.locator(`[data-testid="audit-action"][data-action="${action}"]`)).toHaveText(
      adminText('en', `audit.actions.${action}`),
    );
  }

  // The operator, in a browser of their own, translates a customer's Spanish message.
  const text = 'Quiero comprar una casa';
  const chat = await receiveChat(parley, freshSeat, [text]);
  const context = await browser.newContext({ baseURL: parley.url });
  const seat = await context.newPage();
  await storeSettings(seat);
  await signIn(seat, freshSeat.account, freshSeat.password);
  await openChat(seat, chat.session_id);
  await bubble(seat, text).click({ button: 'right' });
  await seat.getByTestId('message-action-translate').click();
  const translation = bubble(seat, text).getByTestId('message-translation');
  // Apertium alone says "house"; the glossary's word stands in its place.
  await expect(translation).toContainText('home');
  await expect(translation).not.toContainText('house');
  await expect(bubble(seat, text).getByTestId('message-translation-engine')).toHaveText(
    'by Apertium',
  );
  await context.close();

  // Removed again (the worker's server serves other translation specs): the plain engine's words.
  await adminSection(page, 'translation');
  await row
    .getByRole('button', { name: adminText('en', 'glossary.removeTerm', { term: 'casa' }) })
    .click();
  await expect(row).toHaveCount(0);
  await engines.getByTestId('route-row').getByRole('button').click();
  await expect(engines.getByTestId('route-row')).toHaveCount(0);
});
