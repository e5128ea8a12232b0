import type { Locator, Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { fieldError, login } from '../support/app';
import { bubbles, openChat, seedChats } from '../support/chats';

function item(page: Page, name: string): Locator {
  return page
    .getByTestId('quick-reply-item')
    .filter({ has: page.getByTestId('quick-reply-name-text').getByText(name, { exact: true }) });
}

async function openPanel(page: Page) {
  await page.getByTestId('quick-reply-open').click();
  await expect(page.getByTestId('quick-reply-panel')).toBeVisible();
}

async function create(page: Page, name: string, content: string) {
  await page.getByTestId('quick-reply-add').click();
  await page.getByTestId('quick-reply-name').fill(name);
  await page.getByTestId('quick-reply-content').fill(content);
  await page.getByTestId('quick-reply-save').click();
  await expect(item(page, name)).toHaveCount(1);
}

test.describe('quick replies and materials', () => {
  test.beforeEach(async ({ page, parley, freshSeat }) => {
    const { chats } = await seedChats(parley, freshSeat, 1);
    await login(page, freshSeat.account, freshSeat.password);
    await openChat(page, chats[0]!.group_id, chats[0]!.session_id);
  });

  test('create (with both validation messages), edit, search and delete', async ({ page }) => {
    await openPanel(page);
    await expect(page.getByTestId('quick-reply-empty')).toHaveText('No text replies yet');

    // Name and content cannot be empty.
    await page.getByTestId('quick-reply-add').click();
    await page.getByTestId('quick-reply-save').click();
    const name = page.getByTestId('quick-reply-name');
    const content = page.getByTestId('quick-reply-content');
    await expect(await fieldError(name)).toHaveText('The name cannot be empty');
    await expect(await fieldError(content)).toHaveText('The content cannot be empty');
    await name.fill('Greeting');
    await content.fill('   ');
    await page.getByTestId('quick-reply-save').click();
    await expect(await fieldError(content)).toHaveText('The content cannot be empty');
    await content.fill('Hello! How can I help you today?');
    await page.getByTestId('quick-reply-save').click();
    await expect(item(page, 'Greeting')).toHaveCount(1);
    await expect(item(page, 'Greeting').getByTestId('quick-reply-content-text')).toHaveText(
      'Hello! How can I help you today?',
    );
    await create(page, 'Shipping', 'Your parcel ships tomorrow.');

    // Edit.
    await item(page, 'Shipping').getByTestId('quick-reply-edit').click();
    await expect(page.getByTestId('quick-reply-content')).toHaveValue(
      'Your parcel ships tomorrow.',
    );
    await page.getByTestId('quick-reply-content').fill('Your parcel ships on Monday.');
    await page.getByTestId('quick-reply-save').click();
    await expect(item(page, 'Shipping').getByTestId('quick-reply-content-text')).toHaveText(
      'Your parcel ships on Monday.',
    );

    // Search by name or content.
    await page.getByTestId('quick-reply-search').fill('parcel');
    await expect(page.getByTestId('quick-reply-item')).toHaveCount(1);
    await expect(item(page, 'Shipping')).toHaveCount(1);
    await page.getByTestId('quick-reply-search').fill('GREET');
    await expect(page.getByTestId('quick-reply-item')).toHaveCount(1);
    await expect(item(page, 'Greeting')).toHaveCount(1);
    await page.getByTestId('quick-reply-search').fill('nothing like this');
    await expect(page.getByTestId('quick-reply-empty')).toHaveText('Nothing matches your search');
    await page.getByTestId('quick-reply-search').fill('');

    // Delete, after confirming.
    await item(page, 'Shipping').getByTestId('quick-reply-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect(item(page, 'Shipping')).toHaveCount(0);
    await expect(page.getByTestId('quick-reply-item')).toHaveCount(1);

    // Kept on the server: still there after a reload.
    await page.reload();
    await page.getByTestId('user-item').first().click();
    await openPanel(page);
    await expect(page.getByTestId('quick-reply-item')).toHaveCount(1);
    await expect(item(page, 'Greeting')).toHaveCount(1);
  });

  test('insert into the composer at the caret, or send at once', async ({ page }) => {
    await openPanel(page);
    await create(page, 'Thanks', 'Thank you for your order!');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('quick-reply-panel')).toHaveCount(0);

    const composer = page.getByTestId('composer-input');
    await composer.fill('Hi Ana. See you');
    // The caret after "Hi Ana. ".
    await composer.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(8, 8));
    await openPanel(page);
    await item(page, 'Thanks').getByTestId('quick-reply-insert').click();
    await expect(page.getByTestId('quick-reply-panel')).toHaveCount(0);
    await expect(composer).toHaveValue('Hi Ana. Thank you for your order!See you');
    await expect(composer).toBeFocused();
    await composer.fill('');

    await openPanel(page);
    await item(page, 'Thanks').getByTestId('quick-reply-send').click();
    const sent = bubbles(page, 'Thank you for your order!');
    await expect(sent).toHaveCount(1);
    await expect(sent).toHaveAttribute('data-direction', 'out');
    await expect(sent).toHaveAttribute('data-status', 'sent');
    await expect(composer).toHaveValue('');
  });

  test('typing / offers the materials; arrows, Enter and Escape', async ({ page }) => {
    await openPanel(page);
    await create(page, 'Greeting', 'Hello! How can I help you today?');
    await create(page, 'Goodbye', 'Thanks for writing, have a nice day.');
    await create(page, 'Hours', 'We are open 9 to 18, Monday to Friday.');
    await page.keyboard.press('Escape');

    const composer = page.getByTestId('composer-input');
    const list = page.getByTestId('slash-suggestions');
    await composer.click();
    await composer.pressSequentially('/');
    await expect(list.getByTestId('slash-item')).toHaveCount(3);
    // Filtered by what follows the slash (name or content).
    await composer.pressSequentially('g');
    await expect(list.getByTestId('slash-item')).toHaveCount(2);
    await composer.pressSequentially('oo');
    await expect(list.getByTestId('slash-item')).toHaveCount(1);
    await expect(list.getByTestId('slash-item')).toContainText('Goodbye');
    await composer.press('Backspace');
    await composer.press('Backspace');
    await expect(list.getByTestId('slash-item')).toHaveCount(2);

    // Arrows move the choice; Enter picks it and does not send.
    const items = list.getByTestId('slash-item');
    await expect(items.nth(0)).toHaveAttribute('aria-selected', 'true');
    await composer.press('ArrowDown');
    await expect(items.nth(1)).toHaveAttribute('aria-selected', 'true');
    await composer.press('ArrowDown');
    await expect(items.nth(0)).toHaveAttribute('aria-selected', 'true');
    await composer.press('ArrowUp');
    await expect(items.nth(1)).toHaveAttribute('aria-selected', 'true');
    const picked = (await items.nth(1).textContent())?.includes('Goodbye')
      ? 'Thanks for writing, have a nice day.'
      : 'Hello! How can I help you today?';
    await composer.press('Enter');
    await expect(list).toHaveCount(0);
    await expect(composer).toHaveValue(picked);
    await expect(page.getByTestId('message-item').filter({ hasText: picked })).toHaveCount(0);

    // After other text, Escape closes the list and Enter then sends as usual.
    await composer.pressSequentially(' /open');
    await expect(list.getByTestId('slash-item')).toHaveCount(1);
    await composer.press('Escape');
    await expect(list).toHaveCount(0);
    await expect(composer).toHaveValue(`${picked} /open`);
    await composer.press('Enter');
    await expect(bubbles(page, `${picked} /open`)).toHaveCount(1);
  });
});
