import type { Page } from '@playwright/test';
import { expect } from '../support/fixtures';
import { makeTeam, pickCustomer, teamTest as test } from '../support/team';
import { signIn } from '../support/app';
import { bubble, customerPhone, uniqueText } from '../support/chat';
import { builtInGroup } from '../support/chats';

/**
 * Issue 35, "who is looking", and reading a queued chat before taking it: two seats in two
 * browsers on one team number. B opens a waiting chat and reads the customer's message
 * (read-only, a Take button); A opens it too and B sees "A is viewing", then "A is typing"
 * while A writes a note, and both clear. A reads it and takes it, replies, hands it to B; B's
 * reply right after A's asks "A replied … s ago. Send anyway?" and is sent once confirmed.
 */

test('who is looking at a queued chat, reading it before taking it, and a reply right after another member’s', async ({
  freshSeat: seatA,
  seatB,
  pages,
}) => {
  test.setTimeout(150_000);
  const { a, b, owner, customer } = pages;
  await makeTeam(owner, seatA, seatB);
  await signIn(a, seatA.account, seatA.password);
  await signIn(b, seatB.account, seatB.password);
  for (const p of [a, b]) await p.getByTestId('queue-place').click();

  const number = customerPhone();
  await pickCustomer(customer, seatA.phone, number);
  const hello = uniqueText('Is my order on its way?');
  await customer.getByTestId('sandbox-input').fill(hello);
  await customer.getByTestId('sandbox-send').click();
  const rowOf = (p: Page) =>
    p.locator(`[data-testid="queue-item"][data-receiver-phone="${number}"]`);

  // B reads the waiting chat: the customer's message, no composer, a Take button.
  await rowOf(b).getByTestId('queue-item-open').click();
  await expect(b.getByTestId('queued-message').filter({ hasText: hello })).toBeVisible();
  await expect(b.getByTestId('queued-chat-read-only')).toBeVisible();
  await expect(b.getByTestId('composer-input')).toHaveCount(0);
  await expect(b.getByTestId('queued-chat-take')).toBeVisible();
  const looking = b.getByTestId('team-presence');
  await expect(looking).toHaveCount(0);

  // A opens it too: B sees "A is viewing"; A writes a note: "A is typing".
  await rowOf(a).getByTestId('queue-item-open').click();
  await expect(looking).toHaveText(`${seatA.nickname} is viewing`, { timeout: 5_000 });
  await a.getByTestId('team-note-write').click();
  await a.getByTestId('team-note-input').pressSequentially('Looks like a late parcel', {
    delay: 40,
  });
  await expect(looking).toHaveText(`${seatA.nickname} is typing`, { timeout: 5_000 });
  // A stops typing: a few seconds later it is "viewing" again.
  await expect(looking).toHaveText(`${seatA.nickname} is viewing`, { timeout: 10_000 });
  // A leaves the chat: nobody is looking any more.
  await a.keyboard.press('Escape');
  await builtInGroup(a, 'ungrouped').click();
  await expect(looking).toHaveCount(0, { timeout: 5_000 });

  // A opens the waiting chat, reads the customer's message and takes it.
  await a.getByTestId('queue-place').click();
  await rowOf(a).getByTestId('queue-item-open').click();
  await expect(a.getByTestId('queued-message').filter({ hasText: hello })).toBeVisible();
  await a.getByTestId('queued-chat-take').click();
  await expect(bubble(a, hello)).toBeVisible();
  await expect(b.getByTestId('queued-chat-gone')).toBeVisible();

  // A replies, then hands the chat to B at once.
  const first = uniqueText('It left the warehouse today');
  await a.getByTestId('composer-input').fill(first);
  await a.getByTestId('composer-send').click();
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: first })).toBeVisible();
  await a.getByTestId('chat-hand-over').click();
  const dialog = a.getByTestId('hand-over-dialog');
  await dialog.getByTestId('hand-over-member').click();
  await a.getByRole('option', { name: new RegExp(seatB.nickname) }).click();
  await dialog.getByTestId('hand-over-submit').click();
  await expect(dialog).toBeHidden();

  // B's reply right after A's asks first.
  await expect(b.getByTestId('team-assigned-toast')).toBeVisible();
  await builtInGroup(b, 'ungrouped').click();
  await b.locator(`[data-testid="user-item"][data-receiver-phone="${number}"]`).click();
  await expect(bubble(b, first)).toBeVisible();
  const second = uniqueText('I will check with the courier');
  await b.getByTestId('composer-input').fill(second);
  await b.getByTestId('composer-send').click();
  await expect(b.getByTestId('reply-confirm-text')).toHaveText(
    new RegExp(`^${seatA.nickname} replied to this customer \\d+ s ago\\. Send anyway\\?$`),
  );
  // Not sent until confirmed.
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: second })).toHaveCount(0);
  await b.getByTestId('reply-confirm-send').click();
  await expect(b.getByTestId('reply-confirm-text')).toHaveCount(0);
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: second })).toBeVisible();
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: second })).toHaveCount(1);
});
