import { randomBytes } from 'node:crypto';
import { test, expect } from '../support/fixtures';
import { signIn, userItem } from '../support/app';
import { builtInGroup, customerPhone, openChat, receiveChat } from '../support/chats';

function botPhone(): string {
  return `+1888${[...randomBytes(8)].map((b) => String(b % 10)).join('')}`;
}

test.describe('the profile card', () => {
  test('a Telegram chat: number, Telegram profile, remark edited in place, group, block state, language', async ({
    page,
    parley,
    baseURL,
    freshSeat,
  }) => {
    // A Telegram account of the seat, and a customer whose profile the bot knows (CLI).
    const bot = botPhone();
    await parley.cli('account:add', bot, '--channel', 'telegram', '--label', 'Support bot');
    await parley.cli('account:assign', bot, freshSeat.account);
    const customer = customerPhone();
    const chat = await receiveChat(parley, freshSeat, ['Привет!'], { account: bot, customer });
    const photo = `${baseURL}/favicon.svg`;
    await parley.cli(
      'tg:profile',
      bot,
      customer,
      '--username',
      'anna_tg',
      '--first-name',
      'Anna',
      '--last-name',
      'Ivanova',
      '--photo-url',
      photo,
    );

    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    await page.getByTestId('chat-title').click();
    const card = page.getByTestId('profile-card');
    await expect(card).toBeVisible();
    await expect(card.getByTestId('profile-number')).toHaveText(customer);
    await expect(card.getByTestId('profile-tg-username')).toHaveText('@anna_tg');
    await expect(card.getByTestId('profile-tg-name')).toHaveText('Anna Ivanova');
    const img = card.getByTestId('profile-tg').locator('img');
    await expect(img).toHaveAttribute('src', photo);
    await expect
      .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await expect(card.getByTestId('profile-group')).toHaveText('Ungrouped');
    await expect(card.getByTestId('profile-block-state')).toHaveText('Not blocked');
    await expect(card.getByTestId('profile-language')).toHaveText('Not set');

    // The remark, edited in place (Enter saves): the list shows it at once.
    const remark = card.getByTestId('profile-remark-input');
    await expect(remark).toHaveValue('');
    await remark.fill('Telegram VIP');
    await remark.press('Enter');
    await expect(userItem(page, chat.session_id)).toContainText('Telegram VIP');
    await expect(page.getByTestId('chat-send-phone')).toContainText('Telegram VIP');

    // Block and unblock from the card.
    await card.getByTestId('profile-block').click();
    await expect(card.getByTestId('profile-block-state')).toHaveText('Blocked');
    await expect(card.getByTestId('profile-group')).toHaveText('Blocked');
    await expect(page.getByTestId('composer-input')).toBeDisabled();
    await expect(card.getByTestId('profile-move')).toHaveCount(0);
    await card.getByTestId('profile-unblock').click();
    await expect(card.getByTestId('profile-block-state')).toHaveText('Not blocked');
    await expect(card.getByTestId('profile-group')).toHaveText('Ungrouped');
    await expect(page.getByTestId('composer-input')).toBeEnabled();

    // Move opens the move dialog.
    await card.getByTestId('profile-move').click();
    await expect(page.getByTestId('move-dialog')).toBeVisible();
    await page.keyboard.press('Escape');

    // After a reload the card reads the remark from the server (get_remark).
    await page.reload();
    await expect(builtInGroup(page, 'ungrouped')).toHaveAttribute('data-active', 'true');
    await openChat(page, chat.session_id);
    await page.getByTestId('chat-header-profile').click();
    await expect(page.getByTestId('profile-remark-input')).toHaveValue('Telegram VIP');
    await expect(page.getByTestId('profile-tg-username')).toHaveText('@anna_tg');
  });

  test('a platform chat has no Telegram section; the chat header menu opens the card too', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const chat = await receiveChat(parley, freshSeat, ['Olá']);
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    await page.getByTestId('chat-actions').click();
    await page.getByTestId('chat-actions-menu').getByTestId('session-action-profile').click();
    const card = page.getByTestId('profile-card');
    await expect(card.getByTestId('profile-number')).toHaveText(chat.receiver_phone);
    await expect(card.getByTestId('profile-group')).toHaveText('Ungrouped');
    await expect(card.getByTestId('profile-tg')).toHaveCount(0);
    await expect(card.getByTestId('profile-tg-none')).toHaveCount(0);
  });

  test('a Telegram chat whose profile is not known yet says so', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const bot = botPhone();
    await parley.cli('account:add', bot, '--channel', 'telegram');
    await parley.cli('account:assign', bot, freshSeat.account);
    const chat = await receiveChat(parley, freshSeat, ['hi'], { account: bot });
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    await page.getByTestId('chat-title').click();
    await expect(page.getByTestId('profile-tg-none')).toHaveText(
      'No Telegram profile is known yet',
    );
  });
});
