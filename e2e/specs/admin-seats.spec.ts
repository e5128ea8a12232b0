import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { OTHER_MESSAGES } from '@parley/protocol';
import { test as base, expect } from '../support/fixtures';
import { apiLogin } from '../support/api';
import { login, revealUserItem } from '../support/app';
import { customerPhone, findSession } from '../support/chat';
import {
  DEMO_ADMIN,
  accountRow,
  adminLogin,
  adminSection,
  adminText,
  errorText,
  seatRow,
} from '../support/admin';

/**
 * Issue 12, the administrator's console: an administrator makes a seat and gives it a phone
 * account in the browser; the seat signs in in a browser of its own and works; freezing it in
 * the admin console signs that console out at once; every step is in the audit log.
 */
const test = base.extend<{ seatPage: Page }>({
  // The seat's own browser (its own storage): beside the administrator's `page`.
  seatPage: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
});

const suffix = () => randomBytes(4).toString('hex');
const newPhone = () =>
  `+1555${String(randomBytes(4).readUInt32BE()).padStart(10, '0').slice(0, 8)}`;

test('an administrator creates a seat, gives it an account, the seat works, freezing signs it out at once', async ({
  page,
  seatPage,
  parley,
}) => {
  const seat = { account: `adm_${suffix()}`, nickname: 'Night shift', password: `pw-${suffix()}` };
  const phone = newPhone();
  await adminLogin(page);

  // A seat, created in the browser.
  await adminSection(page, 'seats');
  await page.getByTestId('seat-create-open').click();
  const create = page.getByTestId('seat-create-dialog');
  await create.getByTestId('seat-create-account').fill(seat.account);
  await create.getByTestId('seat-create-nickname').fill(seat.nickname);
  await create.getByTestId('seat-create-password').fill('short');
  await create.getByTestId('seat-create-submit').click();
  // Checked before it is sent: the password's rule, in words.
  await expect(
    create.getByText(adminText('en', 'seats.invalid.password', { min: 8 })),
  ).toBeVisible();
  await create.getByTestId('seat-create-password').fill(seat.password);
  await create.getByTestId('seat-create-submit').click();
  await expect(create).toBeHidden();
  let row = await seatRow(page, seat.account);
  await expect(row.getByTestId('seat-nickname')).toHaveText(seat.nickname);
  await expect(row.getByTestId('seat-status')).toHaveText(adminText('en', 'seats.status.never'));
  await expect(row.getByTestId('seat-phones')).toHaveText('—');

  // A phone account, added, then assigned to the seat.
  await adminSection(page, 'accounts');
  await page.getByTestId('account-create-open').click();
  const add = page.getByTestId('account-create-dialog');
  await add.getByTestId('account-create-phone').fill(phone);
  await add.getByTestId('account-create-label').fill('Support line');
  await add.getByTestId('account-create-submit').click();
  await expect(add).toBeHidden();
  const accountLine = await accountRow(page, phone);
  await expect(accountLine.getByTestId('account-label')).toHaveText('Support line');
  await expect(accountLine.getByTestId('account-seat')).toHaveText(
    adminText('en', 'accounts.unassigned'),
  );
  await accountLine.getByTestId('account-assign-open').click();
  const assign = page.getByTestId('account-assign-dialog');
  await assign.getByTestId('account-assign-seat').fill(seat.account);
  await page.getByRole('option', { name: new RegExp(`^${seat.account} `) }).click();
  await assign.getByTestId('account-assign-submit').click();
  await expect(assign).toBeHidden();
  await expect(accountLine.getByTestId('account-seat')).toHaveText(seat.account);

  // A customer writes to the account; the new seat signs in in its own browser and has the chat.
  const customer = customerPhone();
  await parley.cli('chat:receive', phone, customer, 'Hello, is anyone there?');
  await login(seatPage, seat.account, seat.password);
  await expect(seatPage.getByTestId('user-menu')).toContainText(seat.nickname);
  const { token } = await apiLogin(parley.url, seat.account, seat.password);
  const session = await findSession(parley.url, token, customer);
  await seatPage.getByTestId('time-tab-1').click();
  await expect(await revealUserItem(seatPage, session.session_id)).toContainText(customer);

  // The seats list shows it online, with its account and the chat waiting for a reply.
  await adminSection(page, 'seats');
  row = await seatRow(page, seat.account);
  await expect(row.getByTestId('seat-status')).toHaveAttribute('data-status', 'online');
  await expect(row.getByTestId('seat-phones')).toHaveText(phone);
  await expect(row.getByTestId('seat-chats')).toHaveText('1');
  await expect(row.getByTestId('seat-waiting')).toContainText('1');

  // Freezing: the seat's console says at once, without any click there, that its account is
  // frozen (200002), not that its login expired.
  await row.getByTestId('seat-freeze').click();
  await page.getByTestId('seat-freeze-confirm').click();
  await expect(page.getByTestId('seat-freeze-dialog')).toBeHidden();
  await expect(row.getByTestId('seat-status')).toHaveAttribute('data-status', 'frozen');
  const expired = seatPage.getByTestId('login-expired-modal');
  await expect(expired).toBeVisible({ timeout: 5_000 });
  await expect(expired).toContainText(errorText('en', '200002'));
  await expect(expired).not.toContainText(OTHER_MESSAGES.loginExpired);
  // And it cannot sign in again: the frozen account's coded error, translated.
  await expired.getByTestId('confirm-ok').click();
  await expect(seatPage).toHaveURL(/\/login$/);
  await seatPage.getByTestId('login-username').fill(seat.account);
  await seatPage.getByTestId('login-password').fill(seat.password);
  await seatPage.getByTestId('login-submit').click();
  await expect(seatPage.getByText(errorText('en', '200002'), { exact: true })).toBeVisible();

  // Every step is in the audit log, with who did it and what changed.
  await adminSection(page, 'audit');
  await page.getByTestId('audit-filter-actor').fill(DEMO_ADMIN.account);
  const entries = page.getByTestId('audit-table').locator('tbody tr');
  for (const action of ['seat.create', 'account.create', 'account.assign', 'seat.freeze']) {
    await expect(
      entries.filter({ has: page.locator(`[data-action="${action}"]`) }).filter({
        hasText: action.startsWith('seat') ? seat.account : phone,
      }),
    ).toHaveCount(1);
  }
  const freeze = entries.filter({ has: page.locator('[data-action="seat.freeze"]') }).filter({
    hasText: seat.account,
  });
  await expect(freeze.getByTestId('audit-changes')).toContainText('frozen');
  await expect(freeze.getByTestId('audit-changes')).toContainText('false → true');
  // Filtered by what was done: only freezes.
  await page.getByTestId('audit-filter-action').click();
  await page.getByRole('option', { name: adminText('en', 'audit.actions.seat.freeze') }).click();
  // The unfiltered rows, then a loading table, come before the filtered page: wait for it.
  await expect
    .poll(async () => {
      const actions = await entries
        .locator('[data-action]')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-action')));
      return [...new Set(actions)];
    })
    .toEqual(['seat.freeze']);
});

test('refused actions show the coded error in the UI language and change nothing', async ({
  page,
}) => {
  await page.addInitScript(() => window.localStorage.setItem('language', '"pt"'));
  await adminLogin(page);
  await expect(page.getByTestId('admin-nav-seats')).toHaveText(adminText('pt', 'routes.seats'));
  await adminSection(page, 'seats');
  await expect(page.getByTestId('seat-table')).toBeVisible();
  const before = await page.getByTestId('admin-count').textContent();

  // The demo seat's account is taken: 500002, by the field, in Portuguese.
  await page.getByTestId('seat-create-open').click();
  const create = page.getByTestId('seat-create-dialog');
  await create.getByTestId('seat-create-account').fill('demo');
  await create.getByTestId('seat-create-password').fill('a-long-password');
  await create.getByTestId('seat-create-submit').click();
  await expect(create.getByText(errorText('pt', '500002'), { exact: true })).toBeVisible();
  await create.getByRole('button', { name: adminText('pt', 'actions.cancel') }).click();
  await expect(page.getByTestId('admin-count')).toHaveText(before ?? '');

  // A malformed number is refused before it is sent, in words.
  await adminSection(page, 'accounts');
  await page.getByTestId('account-create-open').click();
  const add = page.getByTestId('account-create-dialog');
  await add.getByTestId('account-create-phone').fill('12ab');
  await add.getByTestId('account-create-submit').click();
  await expect(add.getByText(adminText('pt', 'accounts.invalid.phone'))).toBeVisible();
});
