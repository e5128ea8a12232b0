import { test, expect } from '../support/fixtures';
import { signIn, switchLanguage, userItem } from '../support/app';
import { receiveChat } from '../support/chats';
import { tr } from '../support/locales';

/** Issue 26: the console by keyboard. */
test('next/previous/next-unread chat, the composer, search and the shortcuts list by keyboard; nothing while typing', async ({
  page,
  parley,
  freshSeat,
}) => {
  test.setTimeout(120_000);
  // Listed newest first: third, second, first.
  const first = await receiveChat(parley, freshSeat, ['One']);
  const second = await receiveChat(parley, freshSeat, ['Two']);
  const third = await receiveChat(parley, freshSeat, ['Three']);
  await signIn(page, freshSeat.account, freshSeat.password);
  await expect(userItem(page, first.session_id)).toBeVisible();
  const title = page.getByTestId('chat-title');

  await page.keyboard.press('Alt+ArrowDown');
  await expect(title).toHaveText(third.receiver_phone);
  await expect(page).toHaveURL(new RegExp(`chat=${third.session_id}$`));
  await page.keyboard.press('Alt+ArrowDown');
  await expect(title).toHaveText(second.receiver_phone);
  await page.keyboard.press('Alt+ArrowUp');
  await expect(title).toHaveText(third.receiver_phone);
  // The next unread: the second was read when opened, the first was not.
  await page.keyboard.press('Alt+Shift+ArrowDown');
  await expect(title).toHaveText(first.receiver_phone);

  // R goes to the composer; typing there fires no shortcut.
  await page.keyboard.press('r');
  const input = page.getByTestId('composer-input');
  await expect(input).toBeFocused();
  await page.keyboard.type('are you there? r');
  await page.keyboard.press('Alt+ArrowUp');
  await page.keyboard.press('Control+k');
  await expect(input).toHaveValue('are you there? r');
  await expect(title).toHaveText(first.receiver_phone);
  await expect(page.getByTestId('shortcuts-dialog')).toHaveCount(0);
  await expect(page.getByTestId('message-search-input')).toHaveCount(0);

  // Out of the field: ? lists the shortcuts, translated; Ctrl+K opens search.
  await input.blur();
  await switchLanguage(page, 'pt');
  await page.keyboard.press('?');
  const help = page.getByTestId('shortcuts-dialog');
  await expect(help).toBeVisible();
  await expect(page.getByRole('dialog')).toContainText(tr('pt', 'Keyboard shortcuts', 'common'));
  await expect(help).toContainText(tr('pt', 'Next unread chat', 'common'));
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('message-search-input')).toBeVisible();
  await page.keyboard.press('Escape');

  // From the top of the page, the composer is a Tab and an Enter away (a skip link).
  await page.reload();
  await expect(input).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-composer')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(input).toBeFocused();
});

test('R pressed as a chat opens, before its composer is built, still focuses that composer', async ({
  page,
  parley,
  freshSeat,
}) => {
  const chat = await receiveChat(parley, freshSeat, ['Hello?']);
  await signIn(page, freshSeat.account, freshSeat.password);
  await expect(userItem(page, chat.session_id)).toBeVisible();
  // Both keys in one task: the chat opens with the first, and its body (the composer with it)
  // is rendered deferred, so the composer cannot exist yet when R comes.
  const hadComposer = await page.evaluate(() => {
    const key = (init: KeyboardEventInit) =>
      window.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, ...init }));
    key({ key: 'ArrowDown', altKey: true });
    const present = document.getElementById('composer-input') !== null;
    key({ key: 'r' });
    return present;
  });
  expect(hadComposer).toBe(false);
  await expect(page.getByTestId('chat-title')).toHaveText(chat.receiver_phone);
  await expect(page.getByTestId('composer-input')).toBeFocused();
});
