import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { CHAT_PAGE_SIZE_DEFAULT } from '@parley/protocol';
import { call } from '../support/api';
import { test as base, expect } from '../support/fixtures';
import { expectBadge, signIn, userItem } from '../support/app';
import { bubble, chatRecord, customerPhone, findSession, uniqueText } from '../support/chat';
import { builtInGroup, openChat, receiveChat, rowMenu, seatToken } from '../support/chats';

/**
 * Issue 26: mark a chat unread (the badges of the chat, its group, its time tab and the total
 * move, and opening it reads it again), and reply to a message (the quote above the new one in
 * the console and on the customer's sandbox, both ways).
 */
const test = base.extend<{ customer: Page; other: Page }>({
  customer: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
  /** The seat's other console: another browser signed in to the same seat. */
  other: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
});

test('mark unread by the seat’s other console while this one has the chat open: it stays open, shows the mark, and choosing it again reads it', async ({
  page,
  other,
  parley,
  freshSeat,
}) => {
  const chat = await receiveChat(parley, freshSeat, ['Can I change the size?']);
  const token = await seatToken(parley.url, freshSeat);
  await signIn(page, freshSeat.account, freshSeat.password);
  await page.getByTestId('time-tab-1').click();
  await openChat(page, chat.session_id);
  await signIn(other, freshSeat.account, freshSeat.password);
  await other.getByTestId('time-tab-1').click();

  const badges = (p: Page) => [
    userItem(p, chat.session_id).getByTestId('user-unread'),
    builtInGroup(p, 'ungrouped').getByTestId('group-unread'),
    p.getByTestId('time-tab-1-unread'),
    p.getByTestId('total-unread'),
  ];
  for (const badge of badges(page)) await expectBadge(badge, 0);
  const menu = await rowMenu(other, chat.session_id);
  await menu.getByTestId('session-action-mark-unread').click();
  for (const badge of badges(other)) await expectBadge(badge, 1);

  // This console shows the mark everywhere, and keeps the chat open where the operator is.
  for (const badge of badges(page)) await expectBadge(badge, 1);
  await expect(page.getByTestId('chat-pane')).not.toHaveAttribute('data-empty', 'true');
  await expect(page.getByTestId('composer-input')).toBeVisible();
  await expect(userItem(page, chat.session_id)).toHaveAttribute('data-active', 'true');
  // It does not read the chat back behind the other console's back: the server keeps the mark.
  await page.waitForTimeout(2_000);
  expect((await findSession(parley.url, token, chat.receiver_phone)).un_read_count).toBe(1);
  for (const badge of badges(other)) await expectBadge(badge, 1);

  // Choosing the open chat again reads it, in both consoles and on the server.
  await userItem(page, chat.session_id).click();
  for (const badge of badges(page)) await expectBadge(badge, 0);
  for (const badge of badges(other)) await expectBadge(badge, 0);
  await expect
    .poll(async () => (await findSession(parley.url, token, chat.receiver_phone)).un_read_count)
    .toBe(0);
});

test('a click on a quote jumps to the quoted message, loading older messages, briefly highlighted', async ({
  page,
  parley,
  freshSeat,
}) => {
  const question = uniqueText('Which colours does the jacket come in');
  const chat = await receiveChat(parley, freshSeat, [question]);
  const token = await seatToken(parley.url, freshSeat);
  const quoted = (await chatRecord(parley.url, token, chat)).at(-1)!;
  const send = (content: string, reply_to?: number) =>
    call(
      parley.url,
      '/v1/seat/chat/message',
      {
        send_phone: freshSeat.phone,
        receiver_phone: chat.receiver_phone,
        content,
        client_msg_id: `e2e-${randomBytes(8).toString('hex')}`,
        ...(reply_to ? { reply_to } : {}),
      },
      token,
    );
  // More than a page of messages between the question and the reply that quotes it.
  for (let i = 0; i < CHAT_PAGE_SIZE_DEFAULT + 10; i += 1) await send(`Filler ${i + 1}`);
  const answer = uniqueText('Blue, black and olive');
  await send(answer, quoted.msg_id);

  await signIn(page, freshSeat.account, freshSeat.password);
  await page.getByTestId('time-tab-1').click();
  await openChat(page, chat.session_id);
  await expect(bubble(page, answer)).toBeVisible();
  // The question is not in the loaded page.
  await expect(bubble(page, question)).toHaveCount(0);

  const quote = bubble(page, answer).getByTestId('message-quote');
  await expect(quote).toHaveRole('button');
  await quote.click();
  const target = bubble(page, question);
  await expect(target).toBeInViewport();
  const row = page.locator('[data-highlighted="true"]');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('message-item')).toHaveAttribute(
    'data-msg-id',
    String(quoted.msg_id),
  );
  const background = () => row.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await background()).not.toBe('rgba(0, 0, 0, 0)');
  // Briefly: the highlight fades.
  await expect.poll(background, { timeout: 8_000 }).toBe('rgba(0, 0, 0, 0)');
  // Scrolling down leads back to the reply.
  await page.getByTestId('chat-jump-latest').click();
  await expect(bubble(page, answer)).toBeInViewport();
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
