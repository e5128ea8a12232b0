import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { test as base, expect } from '../support/fixtures';
import { customerPhone, findSession, openChat } from '../support/chat';
import { apiLogin, call } from '../support/api';
import { login, userItem } from '../support/app';

/**
 * Customers have names and faces: a customer writes from the sandbox under a name (the
 * platform's `name`), and the operator sees that name and an initials avatar in the chat row,
 * the chat's header, the profile card and the address book, finds the customer by it in the
 * search and the address book, and sees its own remark win over it.
 */
const test = base.extend<{ customer: Page }>({
  customer: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
});

async function writeAs(customer: Page, phone: string, number: string, name: string, text: string) {
  await customer.goto('/sandbox');
  await customer.getByTestId('sandbox-account').click();
  await customer.getByRole('option', { name: new RegExp(phone.replace('+', '\\+')) }).click();
  await customer.getByTestId('sandbox-customer').fill(number);
  await customer.getByTestId('sandbox-name').fill(name);
  await customer.getByTestId('sandbox-input').fill(text);
  await customer.getByTestId('sandbox-send').click();
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: text })).toHaveAttribute(
    'data-direction',
    'in',
  );
}

const background = (avatar: Locator) =>
  avatar.evaluate((el) => {
    // Mantine draws the initials in a placeholder inside the avatar's root.
    const placeholder = el.querySelector('[class*="placeholder"]') ?? el;
    return getComputedStyle(placeholder).backgroundColor;
  });

test('a customer’s name and initials show in the row, the header, the card and the address book; search finds them by name; a remark wins', async ({
  page,
  customer,
  parley,
  freshSeat,
}) => {
  const surname = `Silva${randomBytes(2).toString('hex')}`;
  const name = `Maria ${surname}`;
  const number = customerPhone();
  await login(page, freshSeat.account, freshSeat.password);
  await writeAs(customer, freshSeat.phone, number, name, 'Olá, tudo bem?');
  const { token } = await apiLogin(parley.url, freshSeat.account, freshSeat.password);
  const session = await findSession(parley.url, token, number);

  // The row: the name above the number, the initials on the customer's colour.
  const row = userItem(page, session.session_id);
  await expect(row.getByTestId('user-name')).toHaveText(name);
  await expect(row).toContainText(number);
  const rowAvatar = row.getByTestId('user-avatar');
  await expect(rowAvatar).toHaveText('MS');
  await expect(rowAvatar).toHaveAttribute('data-photo', 'false');
  const colour = await background(rowAvatar);
  expect(colour).not.toBe('rgba(0, 0, 0, 0)');

  // The header: the same name, face and colour; the number stays.
  await openChat(page, session.session_id);
  await expect(page.getByTestId('chat-name')).toHaveText(name);
  await expect(page.getByTestId('chat-title')).toHaveText(number);
  const headerAvatar = page.getByTestId('chat-avatar');
  await expect(headerAvatar).toHaveText('MS');
  expect(await background(headerAvatar)).toBe(colour);

  // The profile card.
  await page.getByTestId('chat-title').click();
  const card = page.getByTestId('profile-card');
  await expect(card.getByTestId('profile-name')).toHaveText(name);
  await expect(card.getByTestId('profile-avatar')).toHaveText('MS');
  expect(await background(card.getByTestId('profile-avatar'))).toBe(colour);
  await expect(card.getByTestId('profile-number')).toHaveText(number);
  await page.keyboard.press('Escape');
  await expect(card).toBeHidden();

  // The search finds the customer by a part of the name, in any case, shorter than message
  // text's 6 characters (issue 37); the match opens the chat.
  await page.getByTestId('message-search-open').click();
  await page.getByTestId('message-search-input').fill('maria');
  await page.getByTestId('message-search-submit').click();
  const match = page.getByTestId('customer-match');
  await expect(match).toHaveCount(1);
  await expect(match.getByTestId('customer-match-name')).toHaveText(name);
  await expect(match.getByTestId('customer-match-avatar')).toHaveText('MS');
  await match.click();
  await expect(page.getByTestId('message-search-input')).toHaveCount(0);
  await expect(page.getByTestId('chat-name')).toHaveText(name);

  // The address book lists and finds the customer by name.
  await page.getByRole('tab', { name: 'Address book' }).click();
  await page.getByTestId('address-book-search').fill(surname.toUpperCase());
  const entry = page.getByTestId('address-book-item');
  await expect(entry).toHaveCount(1);
  await expect(entry).toHaveAttribute('data-receiver-phone', number);
  await expect(entry.getByTestId('address-book-name')).toHaveText(name);
  await expect(entry.getByTestId('address-book-avatar')).toHaveText('MS');

  // The batch reply's chat list names the customer too.
  await page.getByRole('tab', { name: 'Chats' }).click();
  await page.getByTestId('batch-open').click();
  const batchChat = page.locator(
    `[data-testid="batch-chat"][data-session-id="${session.session_id}"]`,
  );
  await page
    .locator(`[data-testid="batch-group"][data-group-id="${session.group_id}"]`)
    .getByTestId('batch-group-toggle')
    .click();
  await expect(batchChat).toHaveText(`${number} · ${name}`);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('batch-dialog')).toBeHidden();

  // The seat's remark wins over the channel's name everywhere; the card keeps the latter.
  await call(
    parley.url,
    '/v1/seat/chat/set_remark',
    { session_id: session.session_id, remark: 'Wholesale buyer' },
    token,
  );
  await page.getByRole('tab', { name: 'Chats' }).click();
  await expect(row.getByTestId('user-name')).toHaveText('Wholesale buyer');
  await expect(row.getByTestId('user-avatar')).toHaveText('WB');
  await openChat(page, session.session_id);
  await expect(page.getByTestId('chat-name')).toHaveText('Wholesale buyer');
  await page.getByTestId('chat-title').click();
  await expect(card.getByTestId('profile-channel-name')).toHaveText(`Name on the channel: ${name}`);
});

test('a customer without a name is their number, with its last two digits as the face', async ({
  page,
  parley,
  freshSeat,
}) => {
  const number = customerPhone();
  await parley.cli('chat:receive', freshSeat.phone, number, 'no name here');
  const { token } = await apiLogin(parley.url, freshSeat.account, freshSeat.password);
  const session = await findSession(parley.url, token, number);
  await login(page, freshSeat.account, freshSeat.password);
  const row = userItem(page, session.session_id);
  await expect(row.getByTestId('user-name')).toHaveCount(0);
  await expect(row.getByTestId('user-avatar')).toHaveText(number.slice(-2));
  await openChat(page, session.session_id);
  await expect(page.getByTestId('chat-name')).toHaveCount(0);
  await expect(page.getByTestId('chat-title')).toHaveText(number);
});
