import type { Browser, Page } from '@playwright/test';
import { test as base, expect, type Seat } from './fixtures';
import { adminLogin, adminSection, accountRow } from './admin';

/**
 * Team accounts in the browser (issue 35): a second seat, and the pages of two members, the
 * owner and a sandbox customer, each in a context of its own.
 */
async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 860 } });
  return context.newPage();
}

export const teamTest = base.extend<{
  seatB: Seat;
  pages: { a: Page; b: Page; owner: Page; customer: Page };
}>({
  seatB: async ({ createSeat }, use) => use(await createSeat()),
  pages: async ({ browser, parley }, use) => {
    const pages = {
      a: await newPage(browser, parley.url),
      b: await newPage(browser, parley.url),
      owner: await newPage(browser, parley.url),
      customer: await newPage(browser, parley.url),
    };
    await use(pages);
    for (const p of Object.values(pages)) await p.context().close();
  },
});

/** The sandbox page as the customer `number` writing to the account `phone`. */
export async function pickCustomer(customer: Page, phone: string, number: string) {
  await customer.goto('/sandbox');
  await customer.getByTestId('sandbox-account').click();
  await customer.getByRole('option', { name: new RegExp(phone.replace('+', '\\+')) }).click();
  await customer.getByTestId('sandbox-customer').fill(number);
}

/**
 * The owner makes `seat`'s number a team account of `seat` and `other` (manual routing) in the
 * admin console; its card on the accounts page, with both members.
 */
export async function makeTeam(owner: Page, seat: Seat, other: Seat) {
  await adminLogin(owner);
  await adminSection(owner, 'accounts');
  const row = await accountRow(owner, seat.phone);
  await row.getByTestId('account-team-open').click();
  const dialog = owner.getByTestId('team-dialog');
  await expect(dialog).toBeVisible();
  // The account's seat is offered as the first member; B is found by its account.
  await expect(dialog.getByText(seat.account)).toBeVisible();
  const members = dialog.getByTestId('team-members');
  await members.click();
  await members.fill(other.account);
  await owner.getByRole('option', { name: new RegExp(other.account) }).click();
  await dialog.getByTestId('team-capacity').fill('5');
  await dialog.getByTestId('team-submit').click();
  await expect(dialog).toBeHidden();
  const card = owner.getByTestId(`team-card-${seat.phone}`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId(`team-member-${seat.account}`)).toBeVisible();
  await expect(card.getByTestId(`team-member-${other.account}`)).toBeVisible();
  return card;
}
