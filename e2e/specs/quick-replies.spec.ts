import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { SessionItem } from '@parley/protocol';
import { apiLogin, call } from '../support/api';
import { test, expect } from '../support/fixtures';
import { fieldError, signIn } from '../support/app';
import { bubbles, openChatIn, seedChats } from '../support/seed-chats';
import { REPO_ROOT } from '../support/server';

const PHOTO = path.join(REPO_ROOT, 'e2e/fixtures/media/photo.png');

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
  let chat: SessionItem;
  test.beforeEach(async ({ page, parley, freshSeat }) => {
    const { chats } = await seedChats(parley, freshSeat, 1);
    chat = chats[0]!;
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChatIn(page, chat.group_id, chat.session_id);
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

  test('an image material: upload required, uploaded with a preview, then sent', async ({
    page,
    parley,
    freshSeat,
  }) => {
    await openPanel(page);
    await page.getByTestId('quick-reply-tab-image').click();
    await expect(page.getByTestId('quick-reply-empty')).toHaveText('No image materials yet');
    await page.getByTestId('quick-reply-add').click();
    await page.getByTestId('quick-reply-name').fill('Price list');
    await page.getByTestId('quick-reply-content').fill('Our prices this month');
    await page.getByTestId('quick-reply-save').click();
    // Name and content are there; the image is not.
    await expect(page.getByTestId('quick-reply-media')).toContainText('Please upload an image');
    await expect(page.getByTestId('quick-reply-form')).toBeVisible();

    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('quick-reply-file').click();
    await (await chooser).setFiles(PHOTO);
    const preview = page.getByTestId('quick-reply-media-preview');
    await expect(preview).toBeVisible();
    await expect(page.getByTestId('quick-reply-media')).not.toContainText('Please upload an image');
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await page.getByTestId('quick-reply-save').click();

    const material = item(page, 'Price list');
    await expect(material).toHaveAttribute('data-kind', 'image');
    const thumb = material.getByTestId('quick-reply-image');
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    // Only text materials are inserted into the composer; this one is sent.
    await expect(material.getByTestId('quick-reply-insert')).toBeDisabled();
    const before = await page.getByTestId('message-item').count();
    await material.getByTestId('quick-reply-send').click();
    await expect(page.getByTestId('quick-reply-panel')).toHaveCount(0);
    await expect(page.getByTestId('message-item')).toHaveCount(before + 1);
    await expect(page.getByTestId('message-item').last()).toHaveAttribute('data-status', 'sent');
    await expect(page.getByTestId('message-item').last()).toHaveAttribute('data-direction', 'out');

    // The customer got the material's image, once.
    const { token } = await apiLogin(parley.url, freshSeat.account, freshSeat.password);
    const [{ list }, record] = await Promise.all([
      call(parley.url, '/v1/seat/chat/quickReplyList', {}, token),
      call(
        parley.url,
        '/v1/seat/chat/getChatRecord',
        { send_phone: chat.send_phone, receiver_phone: chat.receiver_phone },
        token,
      ),
    ]);
    const images = record.list.filter((m) => m.type === 'image');
    expect(images).toHaveLength(1);
    expect(images[0]!.media?.media_id).toBe(list[0]!.media_id);
  });
});
