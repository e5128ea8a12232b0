import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { login, signIn, switchLanguage } from '../support/app';
import { openChatIn, seedChats } from '../support/seed-chats';
import { tr } from '../support/locales';

async function pick(page: Page, category: string, emoji: string) {
  if (!(await page.getByTestId('emoji-picker').isVisible())) {
    await page.getByTestId('emoji-open').click();
  }
  await page.getByTestId(`emoji-category-${category}`).click();
  await page.locator(`[data-testid="emoji-item"][data-emoji="${emoji}"]`).click();
}

function frequent(page: Page) {
  return page.getByTestId('emoji-grid').getByTestId('emoji-item');
}

test.describe('emoji picker', () => {
  test.beforeEach(async ({ page, parley, freshSeat }) => {
    const { chats } = await seedChats(parley, freshSeat, 1);
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChatIn(page, chats[0]!.group_id, chats[0]!.session_id);
  });

  test('the spec categories, translated; an emoji goes in at the caret', async ({ page }) => {
    await page.getByTestId('emoji-open').click();
    const names = {
      frequent: 'Frequent',
      gestures: 'Gestures',
      hearts: 'Hearts',
      nature: 'Nature',
      food: 'Food',
      festivals: 'Festivals',
      weather: 'Weather',
    };
    for (const [id, name] of Object.entries(names)) {
      await expect(page.getByTestId(`emoji-category-${id}`)).toHaveText(name);
    }
    await page.keyboard.press('Escape');
    // Wait out the closing transition: a picker still fading out would take the next click.
    await expect(page.getByTestId('emoji-picker')).toBeHidden();

    const composer = page.getByTestId('composer-input');
    await composer.fill('Hello world');
    await composer.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(5, 5));
    await pick(page, 'food', '🍕');
    await expect(composer).toHaveValue('Hello🍕 world');
    // The caret stays after the emoji: the next one follows it.
    await pick(page, 'weather', '☀️');
    await expect(composer).toHaveValue('Hello🍕☀️ world');
    await composer.press('Enter');
    await expect(
      page.getByTestId('message-text').getByText('Hello🍕☀️ world', { exact: true }),
    ).toHaveCount(1);

    await switchLanguage(page, 'ru');
    await page.getByTestId('emoji-open').click();
    for (const [id, name] of Object.entries(names)) {
      await expect(page.getByTestId(`emoji-category-${id}`)).toHaveText(tr('ru', name, 'emoji'));
    }
  });

  test('Escape closes the picker, after opening it and after a pick', async ({ page }) => {
    const picker = page.getByTestId('emoji-picker');
    await page.getByTestId('emoji-open').click();
    await expect(picker).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(picker).toBeHidden();

    // A pick puts the focus back in the composer; Escape still closes the picker.
    await pick(page, 'food', '🍕');
    await expect(page.getByTestId('composer-input')).toBeFocused();
    await expect(picker).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(picker).toBeHidden();
    await expect(page.getByTestId('composer-input')).toHaveValue('🍕');
  });

  test('the frequent category learns what this operator picks, and keeps it', async ({ page }) => {
    await page.getByTestId('emoji-open').click();
    await page.getByTestId('emoji-category-frequent').click();
    await expect(page.getByTestId('emoji-empty')).toBeVisible();

    await pick(page, 'festivals', '🎉');
    await pick(page, 'hearts', '💙');
    await pick(page, 'festivals', '🎉');
    await pick(page, 'festivals', '🎉');
    await pick(page, 'hearts', '💙');
    await pick(page, 'nature', '🌻');
    await expect(page.getByTestId('composer-input')).toHaveValue('🎉💙🎉🎉💙🌻');
    await page.getByTestId('emoji-category-frequent').click();
    const expected = ['🎉', '💙', '🌻'];
    await expect(frequent(page)).toHaveCount(3);
    for (const [i, e] of expected.entries()) {
      await expect(frequent(page).nth(i)).toHaveAttribute('data-emoji', e);
    }

    // It survives a reload, and the picker then opens on it.
    await page.reload();
    await page.getByTestId('user-item').first().click();
    await page.getByTestId('emoji-open').click();
    await expect(page.getByTestId('emoji-category-frequent')).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(frequent(page)).toHaveCount(3);
    for (const [i, e] of expected.entries()) {
      await expect(frequent(page).nth(i)).toHaveAttribute('data-emoji', e);
    }
  });

  test('each operator has their own frequent emoji', async ({
    page,
    parley,
    freshSeat,
    createSeat,
  }) => {
    await pick(page, 'food', '🍣');
    await page.getByTestId('emoji-category-frequent').click();
    await expect(frequent(page)).toHaveCount(1);

    // Another operator in the same browser starts with an empty frequent category.
    const other = await createSeat();
    const { chats } = await seedChats(parley, other, 1);
    await login(page, other.account, other.password);
    await openChatIn(page, chats[0]!.group_id, chats[0]!.session_id);
    await page.getByTestId('emoji-open').click();
    await expect(page.getByTestId('emoji-category-gestures')).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.getByTestId('emoji-category-frequent').click();
    await expect(page.getByTestId('emoji-empty')).toBeVisible();

    // The first operator's is still there when they come back.
    await login(page, freshSeat.account, freshSeat.password);
    await page.getByTestId('group-item').first().click();
    await page.getByTestId('user-item').first().click();
    await page.getByTestId('emoji-open').click();
    await expect(frequent(page)).toHaveCount(1);
    await expect(frequent(page).first()).toHaveAttribute('data-emoji', '🍣');
  });
});
