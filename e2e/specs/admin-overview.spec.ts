import type { Page } from '@playwright/test';
import { test as base, expect } from '../support/fixtures';
import { customerPhone, uniqueText } from '../support/chat';
import { adminLogin } from '../support/admin';

/**
 * Issue 12, the live overview: the numbers move as customers write, pushed over the admin
 * socket, with no reload and no polling.
 */
const test = base.extend<{ customer: Page }>({
  customer: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
});

const figure = async (page: Page, testId: string) =>
  Number(((await page.getByTestId(testId).textContent()) ?? '').replace(/\D/g, ''));

test('a customer writing in the sandbox moves the overview live, in total and for the seat', async ({
  page,
  customer,
  freshSeat,
}) => {
  await adminLogin(page);
  await expect(page).toHaveURL(/\/admin\/overview$/);
  await expect(page.getByTestId('admin-live')).toHaveAttribute('data-live', 'true');
  await expect(page.getByTestId('overview-totals')).toBeVisible();
  const seatRow = page.getByTestId(`overview-seat-${freshSeat.account}`);
  await expect(seatRow.getByTestId('overview-seat-in')).toHaveText('0');
  const inBefore = await figure(page, 'overview-in');
  const waitingBefore = await figure(page, 'overview-waiting');
  // A reload would lose this mark: the numbers below must arrive without one.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  let overviewCalls = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/v1/admin/overview') overviewCalls += 1;
  });

  await customer.goto('/sandbox');
  await customer.getByTestId('sandbox-account').click();
  await customer
    .getByRole('option', { name: new RegExp(freshSeat.phone.replace('+', '\\+')) })
    .click();
  await customer.getByTestId('sandbox-customer').fill(customerPhone());
  const text = uniqueText('Where is my order?');
  await customer.getByTestId('sandbox-input').fill(text);
  await customer.getByTestId('sandbox-send').click();
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: text })).toBeVisible();

  await expect(seatRow.getByTestId('overview-seat-in')).toHaveText('1');
  await expect(seatRow.getByTestId('overview-seat-waiting')).toContainText('1');
  await expect.poll(() => figure(page, 'overview-in')).toBeGreaterThanOrEqual(inBefore + 1);
  await expect
    .poll(() => figure(page, 'overview-waiting'))
    .toBeGreaterThanOrEqual(waitingBefore + 1);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  expect(overviewCalls).toBe(0);
});
