import path from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect } from '../support/fixtures';
import { bubble, chatRecord, customerPhone, findSession, uniqueText } from '../support/chat';
import { seatToken } from '../support/chats';
import { groupWith, seedChats } from '../support/seed-chats';
import { translationTest } from '../support/translation';
import { REPO_ROOT } from '../support/server';
import {
  PHONE,
  expectFitsScreen,
  expectOnScreen,
  longPress,
  phoneSignIn,
  tapBack,
  tapChat,
} from '../support/phone';

/**
 * Issue 26: everything an operator does on a desktop, done on a phone (390×844, touch) the
 * way a phone user does it: taps and long presses, the list and the chat as two screens.
 * Each screen and each dialog or menu on the way fits the screen's width.
 */
const fixture = (name: string) => path.join(REPO_ROOT, 'e2e/fixtures/media', name);

/** PARLEY_SCREENSHOTS=1 saves the phone's chat and list screens to docs/screenshots/. */
const shot = async (page: Page, name: string) => {
  if (process.env.PARLEY_SCREENSHOTS === '1')
    await page.screenshot({ path: path.join(REPO_ROOT, 'docs/screenshots', name) });
};

/** The customer on the sandbox page (a desktop browser of its own) writes to the seat. */
async function sandboxCustomer(customer: Page, seatPhone: string, text: string) {
  const number = customerPhone();
  await customer.goto('/sandbox');
  await customer.getByTestId('sandbox-account').click();
  await customer.getByRole('option', { name: new RegExp(seatPhone.replace('+', '\\+')) }).click();
  await customer.getByTestId('sandbox-customer').fill(number);
  await customer.getByTestId('sandbox-input').fill(text);
  await customer.getByTestId('sandbox-send').click();
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: text })).toHaveCount(1);
  return number;
}

const test = base.extend<{ customer: Page }>({
  customer: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
});

test.describe('on a phone', () => {
  test.use({ ...PHONE, permissions: ['microphone'] });

  test('an image (file chooser) and a voice note are sent from the chat screen and reach the customer', async ({
    page,
    customer,
    parley,
    freshSeat,
  }) => {
    const question = uniqueText('Can you send a photo of the blue one');
    const number = await sandboxCustomer(customer, freshSeat.phone, question);
    const token = await seatToken(parley.url, freshSeat);
    const session = await findSession(parley.url, token, number);

    await phoneSignIn(page, freshSeat.account, freshSeat.password);
    await expectFitsScreen(page, 'the list');
    await tapChat(page, session.session_id);
    await expect(bubble(page, question)).toBeVisible();
    await expectFitsScreen(page, 'the chat');

    // The image, through the attach button's file chooser.
    const attach = page.getByTestId('composer-attach');
    await expectOnScreen(page, attach);
    const chooser = page.waitForEvent('filechooser');
    await attach.tap();
    await (await chooser).setFiles(fixture('photo.jpg'));
    const image = page.locator('[data-testid="message-item"][data-type="image"]');
    await expect(image).toHaveAttribute('data-status', /sent|delivered|read/, { timeout: 30_000 });
    await expectFitsScreen(page, 'the chat with an image');
    // The viewer opens with a tap and fits the screen.
    await image.getByTestId('message-image').tap();
    await expect(page.getByTestId('image-viewer')).toBeVisible();
    await expectFitsScreen(page, 'the image viewer');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('image-viewer')).toBeHidden();

    // The voice note: the mic, the recording bar, send.
    const mic = page.getByTestId('composer-mic');
    await expectOnScreen(page, mic);
    await mic.tap();
    const recording = page.getByTestId('voice-recording');
    await expect(recording.getByTestId('voice-elapsed')).toHaveText(/^0:0[2-9]$/, {
      timeout: 10_000,
    });
    await expectFitsScreen(page, 'recording');
    await expectOnScreen(page, recording.getByTestId('voice-send'));
    await expectOnScreen(page, recording.getByTestId('voice-cancel'));
    await recording.getByTestId('voice-send').tap();
    const note = page.locator('[data-testid="message-item"][data-type="audio"]');
    await expect(note).toHaveAttribute('data-status', /sent|delivered|read/, { timeout: 30_000 });
    await expect(note.getByTestId('audio-player')).toBeVisible();
    await expectFitsScreen(page, 'the chat with a voice note');

    await shot(page, 'console-chat-390.png');

    // Both reached the customer.
    await expect(
      customer.locator('[data-testid="sandbox-message"][data-direction="out"][data-type="image"]'),
    ).toHaveCount(1);
    await expect(
      customer.locator('[data-testid="sandbox-message"][data-direction="out"][data-type="audio"]'),
    ).toHaveCount(1);
    const stored = await chatRecord(parley.url, token, session);
    expect(stored.filter((m) => m.direction === 'out').map((m) => m.type)).toEqual([
      'image',
      'audio',
    ]);

    // Back to the list: the chat's row shows the voice note.
    await tapBack(page);
    await expectFitsScreen(page, 'the list, back');
    await shot(page, 'console-list-390.png');
  });

  test('the chat screen’s panels and menus open with taps and fit the screen', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const number = customerPhone();
    await parley.cli('chat:receive', freshSeat.phone, number, 'A question about sizes');
    const session = await findSession(parley.url, await seatToken(parley.url, freshSeat), number);
    await phoneSignIn(page, freshSeat.account, freshSeat.password);

    for (const [open, panel] of [
      ['user-menu', 'operator-info'],
      ['language-switcher', null],
    ] as const) {
      await page.getByTestId(open).tap();
      if (panel) await expect(page.getByTestId(panel)).toBeVisible();
      else await expect(page.getByRole('menu').or(page.getByRole('listbox'))).toBeVisible();
      await expectFitsScreen(page, open);
      await page.keyboard.press('Escape');
    }

    await tapChat(page, session.session_id);
    for (const [open, panel] of [
      ['emoji-open', 'emoji-picker'],
      ['quick-reply-open', 'quick-reply-panel'],
      ['chat-actions', 'chat-actions-menu'],
      ['chat-header-profile', 'profile-card'],
    ] as const) {
      const button = page.getByTestId(open);
      await expectOnScreen(page, button);
      await button.tap();
      await expect(page.getByTestId(panel)).toBeVisible();
      await expectFitsScreen(page, panel);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId(panel)).toBeHidden();
    }
  });

  test('reply to a message and mark a chat unread, with long presses', async ({
    page,
    customer,
    parley,
    freshSeat,
  }) => {
    const question = uniqueText('Do you ship to Lisbon');
    const number = await sandboxCustomer(customer, freshSeat.phone, question);
    const session = await findSession(parley.url, await seatToken(parley.url, freshSeat), number);
    await phoneSignIn(page, freshSeat.account, freshSeat.password);
    await tapChat(page, session.session_id);

    // A long press on the customer's message opens its actions, all on screen.
    await longPress(page, bubble(page, question));
    const menu = page.getByTestId('message-context-menu');
    await expect(menu).toBeVisible();
    await expectFitsScreen(page, 'the message menu');
    await menu.getByTestId('message-action-reply').tap();
    await expect(page.getByTestId('composer-quote')).toContainText(question);
    const answer = uniqueText('Yes, in three days');
    await page.getByTestId('composer-input').fill(answer);
    await page.getByTestId('composer-send').tap();
    await expect(bubble(page, answer).getByTestId('message-quote')).toContainText(question);
    await expect(
      customer
        .getByTestId('sandbox-message')
        .filter({ hasText: answer })
        .getByTestId('sandbox-quote'),
    ).toContainText(question);

    // A long press on a row opens the chat's actions: mark unread.
    await tapBack(page);
    const row = page.locator(`[data-testid="user-item"][data-session-id="${session.session_id}"]`);
    await longPress(page, row);
    const rowMenu = page.getByTestId('user-context-menu');
    await expect(rowMenu).toBeVisible();
    await expectFitsScreen(page, 'the chat menu');
    await rowMenu.getByTestId('session-action-mark-unread').tap();
    await expect(row.getByTestId('user-unread')).toHaveText('1');
    // The long press did not also open the chat.
    await expect(page.getByTestId('user-list')).toBeVisible();
  });

  test('batch reply to several chats from the groups drawer', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const { token, chats } = await seedChats(parley, freshSeat, 3);
    const [c1, c2, c3] = chats;
    const text = uniqueText('Batch from a phone');
    await phoneSignIn(page, freshSeat.account, freshSeat.password);

    await page.getByTestId('groups-drawer-open').tap();
    await expect(page.getByTestId('group-list')).toBeVisible();
    await expectFitsScreen(page, 'the groups drawer');
    await page.getByTestId('batch-open').tap();
    const dialog = page.getByTestId('batch-dialog');
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('group-list')).toBeHidden();
    await expectFitsScreen(page, 'the batch dialog');

    const group = page.locator('[data-testid="batch-group"]').filter({
      has: page.locator(`[data-testid="batch-group-count"]`, { hasText: '3 chats' }),
    });
    await group.getByTestId('batch-group-toggle').tap();
    for (const s of [c1!, c2!]) {
      await page
        .locator(`[data-testid="batch-chat"][data-session-id="${s.session_id}"]`)
        .getByTestId('batch-chat-check')
        .tap();
    }
    await expect(page.getByTestId('batch-count')).toHaveText('2 chats chosen');
    await page.getByTestId('batch-text').fill(text);
    const send = page.getByTestId('batch-send');
    await send.scrollIntoViewIfNeeded();
    await expectOnScreen(page, send);
    await send.tap();
    await expect(page.getByTestId('batch-summary')).toHaveText('Done: 2 sent, 0 failed, of 2');
    await expectFitsScreen(page, 'the batch results');
    await page.getByTestId('batch-close').tap();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('user-list')).toBeVisible();

    // Each chosen chat got it once; the third got nothing.
    for (const s of [c1!, c2!]) {
      expect(
        (await chatRecord(parley.url, token, s)).filter((m) => m.content === text),
      ).toHaveLength(1);
    }
    expect((await chatRecord(parley.url, token, c3!)).filter((m) => m.content === text)).toEqual(
      [],
    );
    await tapChat(page, c1!.session_id);
    await expect(bubble(page, text)).toHaveCount(1);
    await tapBack(page);
  });

  test('the groups drawer: the first group is open at the start; with none left chosen, the list offers the drawer', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const { token, chats } = await seedChats(parley, freshSeat, 2);
    const group = await groupWith(parley.url, token, 'Returns', [chats[0]!]);
    await phoneSignIn(page, freshSeat.account, freshSeat.password);
    // The first group (Ungrouped) is chosen although its list is in the closed drawer.
    await expect(page.getByTestId('user-item')).toHaveCount(1);
    await expect(page.getByTestId('user-list-empty')).toHaveCount(0);

    await page.getByTestId('groups-drawer-open').tap();
    const row = page.locator(`[data-testid="group-item"][data-group-id="${group}"]`);
    await row.getByTestId('group-name').tap();
    await expect(page.getByTestId('group-list')).toBeHidden();
    await expect(
      page.locator(`[data-testid="user-item"][data-session-id="${chats[0]!.session_id}"]`),
    ).toBeVisible();

    // The chosen group is deleted: no group is chosen, and the way to one is on this screen.
    await page.getByTestId('groups-drawer-open').tap();
    await row.getByTestId('group-menu').tap();
    await page.getByTestId('group-delete').tap();
    await expectFitsScreen(page, 'the delete confirmation');
    await page.getByTestId('confirm-ok').tap();
    await expect(page.getByTestId('group-list')).toBeHidden();
    const empty = page.getByTestId('user-list-empty');
    await expect(empty).toContainText('Choose a group to see its chats.');
    await empty.getByTestId('user-list-show-groups').tap();
    await expect(page.getByTestId('group-list')).toBeVisible();
  });

  test('search from the header and open a hit: the chat screen at the message; back to the list', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const word = `parcel${Date.now().toString(36)}`;
    const number = customerPhone();
    await parley.cli('chat:receive', freshSeat.phone, number, `Where is my ${word} please`);
    await parley.cli('chat:receive', freshSeat.phone, number, 'It was due on Monday');
    const session = await findSession(parley.url, await seatToken(parley.url, freshSeat), number);
    await phoneSignIn(page, freshSeat.account, freshSeat.password);

    const open = page.getByTestId('message-search-open');
    await expectOnScreen(page, open);
    await open.tap();
    await expect(page.getByTestId('message-search-input')).toBeVisible();
    await expectFitsScreen(page, 'the search dialog');
    await page.getByTestId('message-search-input').fill(word);
    await page.getByTestId('message-search-submit').tap();
    const hit = page.getByTestId('message-search-hit');
    await expect(hit).toHaveCount(1);
    await expectFitsScreen(page, 'the search results');
    await hit.tap();

    await expect(page.getByTestId('message-search-input')).toBeHidden();
    await expect(page.getByTestId('composer-input')).toBeVisible();
    await expect(page.getByTestId('user-list')).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`chat=${session.session_id}`));
    const found = page.locator('[data-highlighted="true"] [data-testid="message-item"]');
    await expect(found).toContainText(word);
    await expectFitsScreen(page, 'the chat at the hit');
    await tapBack(page);
    await expectFitsScreen(page, 'the list after the search');
  });
});

const ES_EN = { 'Quiero comprar una casa': 'I want to buy a house' };
const EN_ES = { 'The house is big': 'La casa es grande' };

translationTest.describe('on a phone, with translation', () => {
  translationTest.use({ ...PHONE });

  translationTest(
    'a customer’s message is translated with a long press; a reply goes out translated',
    async ({ page, parley, freshSeat }) => {
      const spanish = 'Quiero comprar una casa';
      const number = customerPhone();
      await parley.cli('chat:receive', freshSeat.phone, number, spanish);
      const token = await seatToken(parley.url, freshSeat);
      const session = await findSession(parley.url, token, number);
      await phoneSignIn(page, freshSeat.account, freshSeat.password);

      // Translation on, Spanish customers, English operator: in the settings dialog.
      await page.getByTestId('translation-settings-open').tap();
      const dialog = page.getByTestId('translation-settings');
      await expect(dialog).toBeVisible();
      await expectFitsScreen(page, 'the translation settings');
      await dialog.getByRole('switch').tap();
      for (const [picker, search, option] of [
        ['translation-source', 'span', 'Spanish (ES)'],
        ['translation-target', 'engl', 'English (EN)'],
      ] as const) {
        await dialog.getByTestId(picker).tap();
        await dialog.getByTestId(picker).fill(search);
        await expectFitsScreen(page, `the ${picker} options`);
        await page.getByRole('option', { name: option, exact: true }).tap();
        await expect(dialog.getByTestId(picker)).toHaveValue(option);
      }
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      await tapChat(page, session.session_id);
      await longPress(page, bubble(page, spanish));
      const menu = page.getByTestId('message-context-menu');
      await expect(menu).toBeVisible();
      await expectFitsScreen(page, 'the message menu');
      await menu.getByTestId('message-action-translate').tap();
      await expect(bubble(page, spanish).getByTestId('message-translation')).toHaveText(
        ES_EN[spanish],
      );

      // The reply: translate on in the composer, the preview, send.
      const toggle = page.getByTestId('composer-translate-toggle');
      await expectOnScreen(page, toggle);
      await toggle.tap();
      await expect(toggle).toHaveAttribute('aria-pressed', 'true');
      const english = 'The house is big';
      await page.getByTestId('composer-input').fill(english);
      await expect(page.getByTestId('composer-translation-preview')).toHaveText(EN_ES[english]);
      await expectFitsScreen(page, 'the composer with a translation');
      await page.getByTestId('composer-send').tap();
      const sent = bubble(page, EN_ES[english]);
      await expect(sent).toHaveAttribute('data-status', /sent|delivered|read/);
      await expect(sent.getByTestId('message-original')).toHaveText(english);
      expect((await chatRecord(parley.url, token, session)).at(-1)).toMatchObject({
        direction: 'out',
        content: EN_ES[english],
        original_content: english,
      });
      await tapBack(page);
      await expectFitsScreen(page, 'the list');
    },
  );
});
