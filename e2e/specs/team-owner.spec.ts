import type { Page } from '@playwright/test';
import { expect, type Seat } from '../support/fixtures';
import { teamTest as test } from '../support/team';
import { signIn } from '../support/app';
import { adminLogin, adminSection, accountRow } from '../support/admin';
import { customerPhone, uniqueText } from '../support/chat';

/**
 * Issue 35, the owner's side: the team card shows the queue's length and each member's open
 * chats, live (no reload, well within the list's 15 s refetch); the accounts list counts the
 * team number's chats; removing a member who holds chats asks who receives them, and they go to
 * that member.
 */

async function customerWrites(customer: Page, phone: string, text: string) {
  await customer.goto('/sandbox');
  await customer.getByTestId('sandbox-account').click();
  await customer.getByRole('option', { name: new RegExp(phone.replace('+', '\\+')) }).click();
  await customer.getByTestId('sandbox-customer').fill(customerPhone());
  await customer.getByTestId('sandbox-input').fill(text);
  await customer.getByTestId('sandbox-send').click();
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: text })).toBeVisible();
}

// A server started for the spec and three browsers: slow on a loaded machine.
test.describe.configure({ timeout: 240_000 });

/** Live: at most a few seconds (the push, debounced by 1 s), never the 15 s refetch. */
const LIVE = { timeout: 5_000 };

test("the owner's team view is live, and a removed member's chats go to the member the owner picks", async ({
  freshSeat: seatA,
  seatB,
  pages,
}) => {
  const { a, owner, customer } = pages;
  await adminLogin(owner);
  await adminSection(owner, 'accounts');
  const row = await accountRow(owner, seatA.phone);
  await row.getByTestId('account-team-open').click();
  const dialog = owner.getByTestId('team-dialog');
  const members = dialog.getByTestId('team-members');
  await members.click();
  await members.fill(seatB.account);
  await owner.getByRole('option', { name: new RegExp(seatB.account) }).click();
  await dialog.getByTestId('team-submit').click();
  await expect(dialog).toBeHidden();
  const card = owner.getByTestId(`team-card-${seatA.phone}`);
  await expect(card.getByTestId('team-card-queue')).toHaveText('0');

  // Two customers write: the queue's length moves on the owner's screen by itself.
  await customerWrites(customer, seatA.phone, uniqueText('first'));
  await customerWrites(customer, seatA.phone, uniqueText('second'));
  await expect(card.getByTestId('team-card-queue')).toHaveText('2', LIVE);
  await expect(card.getByTestId('team-card-oldest')).not.toHaveText('—');
  // The accounts list counts the team number's chats (the queue's and the members').
  await expect((await accountRow(owner, seatA.phone)).getByTestId('account-chats')).toHaveText(
    '2',
    LIVE,
  );

  // A takes one: the queue and A's open chats move, live.
  await signIn(a, seatA.account, seatA.password);
  await a.getByTestId('queue-place').click();
  await a.getByTestId('queue-item').first().getByTestId('queue-item-open').click();
  await a.getByTestId('queued-chat-take').click();
  await expect(card.getByTestId('team-card-queue')).toHaveText('1', LIVE);
  const open = (seat: Seat) =>
    card.getByTestId(`team-member-${seat.account}`).getByTestId('team-member-open');
  await expect(open(seatA)).toHaveText('1', LIVE);
  await expect(open(seatB)).toHaveText('0');
  await expect((await accountRow(owner, seatA.phone)).getByTestId('account-chats')).toHaveText('2');

  // The owner removes A, who holds a chat: asked who receives it, picks B.
  await card.getByTestId('team-card-edit').click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('team-receiver-field')).toHaveCount(0);
  await dialog
    .locator('.mantine-Pill-root', { hasText: seatA.account })
    .locator('.mantine-Pill-remove')
    .click();
  const field = dialog.getByTestId('team-receiver-field');
  await expect(field).toBeVisible();
  await field.getByTestId('team-receiver').click();
  await owner.getByRole('option', { name: new RegExp(seatB.account) }).click();
  await dialog.getByTestId('team-submit').click();
  await expect(dialog).toBeHidden();
  // Nothing lost: B holds it, the queue keeps its one, A is no member.
  await expect(card.getByTestId(`team-member-${seatA.account}`)).toHaveCount(0);
  await expect(open(seatB)).toHaveText('1', LIVE);
  await expect(card.getByTestId('team-card-queue')).toHaveText('1');
});
