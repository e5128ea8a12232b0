import type { Page } from '@playwright/test';
import { test as base, expect } from '../support/fixtures';
import { expectBadge, signIn, userItem } from '../support/app';
import { bubble, customerPhone, findSession, uniqueText } from '../support/chat';
import { builtInGroup, openChat, receiveChat, rowMenu, seatToken } from '../support/chats';

/**
 * Issue 26: mark a chat unread (the badges of the chat, its group, its time tab and the total
 * move, and opening it reads it again), and reply to a message (the quote above the new one in
 * the console and on the customer's sandbox, both ways).
 */
const test = base.extend<{ customer: Page }>({
  customer: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
});

test('mark unread: the chat, group, time tab and total badges show it; opening the chat reads it', async ({
  page,
  parley,
  freshSeat,
}) => {
  const chat = await receiveChat(parley, freshSeat, ['Is the shop open on Sunday?']);
  await signIn(page, freshSeat.account, freshSeat.password);
  const ungrouped = builtInGroup(page, 'ungrouped');
  await page.getByTestId('time-tab-1').click();
  await openChat(page, chat.session_id);
  const badges = {
    chat: userItem(page, chat.session_id).getByTestId('user-unread'),
    group: ungrouped.getByTestId('group-unread'),
    tab: page.getByTestId('time-tab-1-unread'),
    total: page.getByTestId('total-unread'),
  };
  for (const badge of Object.values(badges)) await expectBadge(badge, 0);

  const menu = await rowMenu(page, chat.session_id);
  await menu.getByTestId('session-action-mark-unread').click();
  for (const badge of Object.values(badges)) await expectBadge(badge, 1);
  // The chat closes: reading it again is opening it.
  await expect(page.getByTestId('chat-pane')).toHaveAttribute('data-empty', 'true');
  // The server holds it (a reload shows the same counts).
  await page.reload();
  await page.getByTestId('time-tab-1').click();
  for (const badge of Object.values(badges)) await expectBadge(badge, 1);
  // An unread chat offers no "mark unread".
  await expect(
    (await rowMenu(page, chat.session_id)).getByTestId('session-action-mark-unread'),
  ).toHaveCount(0);
  await page.keyboard.press('Escape');

  await openChat(page, chat.session_id);
  for (const badge of Object.values(badges)) await expectBadge(badge, 0);
  await page.reload();
  await page.getByTestId('time-tab-1').click();
  for (const badge of Object.values(badges)) await expectBadge(badge, 0);
});

test('reply: the quote shows above the reply in the console and on the sandbox, and above the customer’s reply', async ({
  page,
  customer,
  parley,
  freshSeat,
}) => {
  const number = customerPhone();
  await customer.goto('/sandbox');
  await customer.getByTestId('sandbox-account').click();
  await customer
    .getByRole('option', { name: new RegExp(freshSeat.phone.replace('+', '\\+')) })
    .click();
  await customer.getByTestId('sandbox-customer').fill(number);
  const question = uniqueText('Do you deliver to Porto');
  await customer.getByTestId('sandbox-input').fill(question);
  await customer.getByTestId('sandbox-send').click();
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: question })).toHaveCount(
    1,
  );

  await signIn(page, freshSeat.account, freshSeat.password);
  const session = await findSession(parley.url, await seatToken(parley.url, freshSeat), number);
  await page.getByTestId('time-tab-1').click();
  await openChat(page, session.session_id);

  // The operator replies to the question: the composer shows the quote until it is sent.
  await bubble(page, question).click({ button: 'right' });
  await page.getByTestId('message-action-reply').click();
  await expect(page.getByTestId('composer-quote')).toContainText(question);
  await expect(page.getByTestId('composer-input')).toBeFocused();
  const answer = uniqueText('Yes, in two days');
  await page.getByTestId('composer-input').fill(answer);
  await page.getByTestId('composer-send').click();
  await expect(page.getByTestId('composer-quote')).toHaveCount(0);
  const reply = bubble(page, answer);
  await expect(reply.getByTestId('message-quote')).toContainText(question);
  await expect(reply).toHaveAttribute('data-status', /sent|delivered|read/);
  // The server has it quoted (a reload shows the same).
  await page.reload();
  await expect(bubble(page, answer).getByTestId('message-quote')).toContainText(question);

  // The customer sees the quote above the operator's message, and replies to it.
  const theirs = customer.getByTestId('sandbox-message').filter({ hasText: answer });
  await expect(theirs.getByTestId('sandbox-quote')).toContainText(question);
  await theirs.getByTestId('sandbox-reply').click();
  await expect(customer.getByTestId('sandbox-replying-quote')).toContainText(answer);
  const thanks = uniqueText('Great, thanks');
  await customer.getByTestId('sandbox-input').fill(thanks);
  await customer.getByTestId('sandbox-send').click();
  await expect(customer.getByTestId('sandbox-replying')).toHaveCount(0);
  await expect(
    customer
      .getByTestId('sandbox-message')
      .filter({ hasText: thanks })
      .getByTestId('sandbox-quote'),
  ).toContainText(answer);

  // Pushed to the console: the customer's reply with its quote of the operator's message.
  const back = bubble(page, thanks);
  await expect(back).toHaveAttribute('data-direction', 'in');
  await expect(back.getByTestId('message-quote')).toContainText(answer);
  await expect(back.getByTestId('message-quote-author')).toHaveText('You');

  // A reply can be dropped before sending.
  await bubble(page, thanks).click({ button: 'right' });
  await page.getByTestId('message-action-reply').click();
  await page.getByTestId('composer-reply-cancel').click();
  await expect(page.getByTestId('composer-reply')).toHaveCount(0);
});
