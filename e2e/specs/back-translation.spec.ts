import path from 'node:path';
import type { Page } from '@playwright/test';
import { LocalLibreTranslate } from '../../apps/server/test/engine-servers';
import { signIn } from '../support/app';
import { expect } from '../support/fixtures';
import { REPO_ROOT } from '../support/server';
import { serveWith, translationTest } from '../support/translation';
import { bubble, customerPhone, findSession, openChat } from '../support/chat';
import { apiLogin, call } from '../support/api';
import { adminLogin, adminText } from '../support/admin';

/**
 * Back-translation of a reply (issue 36), in the built console: the reply goes into Spanish by
 * the real Apertium APY and back into English by another engine, the local LibreTranslate
 * server of apps/server/test/engine-servers.ts (LibreTranslate 1.x's API), taught the English
 * of Apertium's Spanish; told to break a number, its answer is flagged in the preview. The
 * customer, on the sandbox page, receives the Spanish with the price and the name intact; the
 * owner's charts count the seat's back-translations and the flagged one.
 */
const test = translationTest.extend<{ customer: Page }, { libre: LocalLibreTranslate }>({
  libre: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const libre = await new LocalLibreTranslate().start();
      try {
        await use(libre);
      } finally {
        await libre.stop();
      }
    },
    { scope: 'worker' },
  ],
  // Apertium there, the local LibreTranslate for the way back.
  parley: [
    ({ apertium, libre }, use) =>
      serveWith(
        {
          APERTIUM_URL: apertium.url,
          LIBRETRANSLATE_URL: libre.url,
          PARLEY_TRANSLATION_PROVIDERS: 'apertium,libretranslate',
        },
        use,
      ),
    { scope: 'worker', timeout: 90_000 },
  ],
  customer: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
});

const REPLY = 'Hello, the price of Zentrox is $49.90.';
/** Apertium's Spanish (apertium-eng-spa), with the price kept out of its sight. */
const SPANISH = 'Hola, el precio de Zentrox es $49.90.';
const BROKEN = 'Hello, the price of Zentrox is $49.90 today.';

test('an operator checks a reply by its back-translation; a broken number is flagged; the customer gets price and name intact', async ({
  page,
  customer,
  parley,
  freshSeat,
  libre,
  browser,
}) => {
  libre.teach('es', 'en', {
    'Hola, el precio de Zentrox es': 'Hello, the price of Zentrox is',
    hoy: 'today',
  });
  // The customer writes from the sandbox; the chat's language is Spanish.
  const number = customerPhone();
  await customer.goto('/sandbox');
  await customer.getByTestId('sandbox-account').click();
  await customer
    .getByRole('option', { name: new RegExp(freshSeat.phone.replace('+', '\\+')) })
    .click();
  await customer.getByTestId('sandbox-customer').fill(number);
  await customer.getByTestId('sandbox-input').fill('Hola, ¿cuánto cuesta?');
  await customer.getByTestId('sandbox-send').click();
  const { token } = await apiLogin(parley.url, freshSeat.account, freshSeat.password);
  const session = await findSession(parley.url, token, number);
  await call(
    parley.url,
    '/v1/seat/chat/set_customer_language',
    { session_id: session.session_id, customer_language: 'ES' },
    token,
  );

  // Translation on, the operator writes English.
  await page.goto('/healthz');
  await page.evaluate(() =>
    window.localStorage.setItem(
      'translate',
      JSON.stringify({
        isEnable: true,
        mode: 'single',
        sourceLanguage: 'ES',
        targetLanguage: 'EN',
      }),
    ),
  );
  await signIn(page, freshSeat.account, freshSeat.password);
  await openChat(page, session.session_id);
  await page.getByTestId('composer-translate-toggle').click();

  // 1-2. A reply with a price and a product name: its translation, and what it says back.
  const input = page.getByTestId('composer-input');
  await input.fill(REPLY);
  await expect(page.getByTestId('composer-translation-preview')).toHaveText(SPANISH);
  // Which engine made what the customer will read.
  await expect(page.getByTestId('composer-translation-engine')).toHaveText('by Apertium');
  await expect(page.getByTestId('composer-back-translation')).toHaveText(REPLY);
  await expect(page.getByTestId('round-trip-flag')).toHaveCount(0);

  // 3. The engine of the way back breaks a number: the preview says so.
  libre.breakNumbers(1);
  await input.fill(BROKEN);
  await expect(page.getByTestId('composer-back-translation')).toContainText('10');
  const flag = page.getByTestId('round-trip-flag');
  await expect(flag).toHaveCount(1);
  await expect(flag).toHaveText('⚠ Number “10” appears only in the back-translation');
  await page
    .getByTestId('composer-translation')
    .screenshot({ path: path.join(REPO_ROOT, 'docs/screenshots/back-translation-flagged.png') });

  // 4. The checked reply is sent: the customer reads the Spanish, price and name intact.
  await input.fill(REPLY);
  await expect(page.getByTestId('composer-back-translation')).toHaveText(REPLY);
  await input.press('Enter');
  const sent = bubble(page, SPANISH);
  await expect(sent.getByTestId('message-original')).toHaveText(REPLY);
  const line = customer
    .getByTestId('sandbox-message')
    .filter({ hasText: 'Zentrox' })
    .filter({ hasText: '$49.90' });
  await expect(line).toHaveAttribute('data-direction', 'out');
  await expect(line).toContainText(SPANISH);

  // After sending, the bubble shows the back-translation on demand.
  await sent.getByTestId('message-back-translation-open').click();
  await expect(sent.getByTestId('message-back-translation')).toHaveText(REPLY);
  await expect(sent.getByTestId('message-sent-translation-engine')).toHaveText('by Apertium');
  await page.screenshot({ path: path.join(REPO_ROOT, 'docs/screenshots/back-translation.png') });

  // The owner's charts count the seat's two back-translations an engine made, one flagged;
  // the last preview, a repeat the memory answered, is not counted again.
  const owner = await (await browser.newContext({ baseURL: parley.url })).newPage();
  await adminLogin(owner);
  await owner.getByTestId(`seat-stats-${freshSeat.account}`).click();
  const table = owner.getByTestId('seat-stats-charts').getByTestId('stats-table-roundTrips');
  const total = (series: string) =>
    table
      .locator(`td[data-series="${series}"]`)
      .evaluateAll((cells) => cells.reduce((n, c) => n + Number(c.textContent), 0));
  await expect.poll(() => total(adminText('en', 'stats.series.backTranslations'))).toBe(2);
  expect(await total(adminText('en', 'stats.series.flagged'))).toBe(1);
  await owner
    .getByTestId('seat-stats-charts')
    .getByTestId('stats-chart-roundTrips')
    .screenshot({ path: path.join(REPO_ROOT, 'docs/screenshots/back-translation-chart.png') });
  await owner.context().close();
});
