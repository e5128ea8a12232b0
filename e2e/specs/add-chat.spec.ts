import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { ERROR_MESSAGES } from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import { fieldError, signIn, switchLanguage, userItem } from '../support/app';
import {
  bubble,
  builtInGroup,
  customerPhone,
  findSession,
  receiveChat,
  seatToken,
} from '../support/chats';
import { tr } from '../support/locales';

async function fillDialog(page: Page, number: string, greeting: string) {
  await page.getByTestId('add-chat-number').fill(number);
  await page.getByTestId('add-chat-greeting').fill(greeting);
  await page.getByTestId('add-chat-submit').click();
}

test.describe('the add-chat dialog', () => {
  test('the number must have a valid format and a greeting is required; nothing is sent', async ({
    page,
    freshSeat,
  }) => {
    await signIn(page, freshSeat.account, freshSeat.password);
    await page.getByTestId('add-chat-open').click();
    const dialog = page.getByTestId('add-chat-dialog');
    // The seat's phone account is chosen.
    await expect(dialog.getByTestId('add-chat-account')).toHaveValue(freshSeat.phone);

    await fillDialog(page, '12-34 abc', 'Hello!');
    await expect(await fieldError(page.getByTestId('add-chat-number'))).toHaveText(
      ERROR_MESSAGES['400005'],
    );
    await fillDialog(page, customerPhone(), '   ');
    await expect(await fieldError(page.getByTestId('add-chat-greeting'))).toHaveText(
      'Please enter a greeting message',
    );
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('user-item')).toHaveCount(0);
  });

  test('the server’s refusals are shown translated: 500006, 400006, 400007', async ({
    page,
    parley,
    freshSeat,
    createSeat,
  }) => {
    const existing = await receiveChat(parley, freshSeat, ['I wrote first']);
    const otherSeat = await createSeat();
    const bot = `+1888${[...randomBytes(8)].map((b) => String(b % 10)).join('')}`;
    await parley.cli('account:add', bot, '--channel', 'telegram', '--label', 'TG bot');
    await parley.cli('account:assign', bot, freshSeat.account);
    await signIn(page, freshSeat.account, freshSeat.password);

    await page.getByTestId('add-chat-open').click();
    const number = page.getByTestId('add-chat-number');
    await fillDialog(page, existing.receiver_phone, 'Hello again');
    await expect(await fieldError(number)).toHaveText(ERROR_MESSAGES['500006']);

    // Another seat's rented account is not a customer.
    await fillDialog(page, otherSeat.phone, 'Hello colleague');
    await expect(await fieldError(number)).toHaveText(ERROR_MESSAGES['400006']);

    // A Telegram bot cannot reach someone who never wrote to it.
    await page.getByTestId('add-chat-account').click();
    await page.getByRole('option', { name: `${bot} · TG bot` }).click();
    await fillDialog(page, customerPhone(), 'Hello from the bot');
    await expect(await fieldError(number)).toHaveText(ERROR_MESSAGES['400007']);

    // The same answer in Portuguese.
    await page.keyboard.press('Escape');
    await switchLanguage(page, 'pt');
    await page.getByTestId('add-chat-open').click();
    await fillDialog(page, existing.receiver_phone, 'Olá de novo');
    await expect(await fieldError(number)).toHaveText(tr('pt', ERROR_MESSAGES['500006'], 'errors'));
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('user-item')).toHaveCount(1);
  });

  test('success: the new chat opens in Ungrouped with the greeting, and stays after a reload', async ({
    page,
    parley,
    freshSeat,
  }) => {
    await signIn(page, freshSeat.account, freshSeat.password);
    // Start from another group: the console goes to the new chat's group.
    await builtInGroup(page, 'tg_link_pushed').click();
    const customer = customerPhone();
    const greeting = `Good morning! ${randomBytes(3).toString('hex')}`;
    await page.getByTestId('add-chat-open').click();
    await fillDialog(page, ` ${customer} `, greeting);
    await expect(page.getByTestId('add-chat-dialog')).toHaveCount(0);

    await expect(builtInGroup(page, 'ungrouped')).toHaveAttribute('data-active', 'true');
    await expect(page.getByTestId('chat-title')).toHaveText(customer);
    await expect(bubble(page, greeting)).toHaveAttribute('data-direction', 'out');
    const session = await findSession(parley.url, await seatToken(parley.url, freshSeat), customer);
    expect(session.send_phone).toBe(freshSeat.phone);
    await expect(userItem(page, session.session_id)).toHaveAttribute('data-active', 'true');

    await page.reload();
    await expect(builtInGroup(page, 'ungrouped')).toHaveAttribute('data-active', 'true');
    await userItem(page, session.session_id).click();
    await expect(bubble(page, greeting)).toHaveCount(1);
  });
});
