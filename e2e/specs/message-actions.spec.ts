import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { ERROR_MESSAGES } from '@parley/protocol';
import { call } from '../support/api';
import { test, expect, DEMO } from '../support/fixtures';
import { groupItem, revealUserItem, signIn, toast } from '../support/app';
import { bubble, openChat, receiveChat } from '../support/chats';
import { demoToken, findDemoChats } from '../support/demo';

/** The delete-for-all window of the test server (PARLEY_DELETE_FOR_ALL_WINDOW_MINUTES default). */
const WINDOW_MINUTES = 120;

async function bubbleMenu(page: Page, text: string) {
  await bubble(page, text).click({ button: 'right' });
  const menu = page.getByTestId('message-context-menu');
  await expect(menu).toBeVisible();
  return menu;
}

async function send(page: Page, text: string) {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
  await expect(bubble(page, text)).toHaveAttribute('data-status', 'sent');
}

test.describe('message actions', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('copy puts the message text on the clipboard', async ({ page, parley, freshSeat }) => {
    const text = `Copy me ${randomBytes(3).toString('hex')}`;
    const chat = await receiveChat(parley, freshSeat, [text]);
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    await (await bubbleMenu(page, text)).getByTestId('message-action-copy').click();
    await expect(page.getByTestId('message-context-menu')).toBeHidden();
    await expect(toast(page, 'Copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
  });

  test('delete only for me: the message disappears, also after a reload', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const hidden = `Hide me ${randomBytes(3).toString('hex')}`;
    const kept = `Keep me ${randomBytes(3).toString('hex')}`;
    const chat = await receiveChat(parley, freshSeat, [hidden, kept]);
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);

    await (await bubbleMenu(page, hidden)).getByTestId('message-action-delete').click();
    const dialog = page.getByTestId('delete-message-dialog');
    await expect(dialog.getByTestId('delete-scope-me')).toBeChecked();
    // A customer's message can only be deleted for me.
    await expect(dialog.getByTestId('delete-scope-all')).toHaveCount(0);
    await dialog.getByTestId('delete-message-confirm').click();
    await expect(dialog).toHaveCount(0);
    await expect(bubble(page, hidden)).toHaveCount(0);
    await expect(bubble(page, kept)).toBeVisible();

    await page.reload();
    await openChat(page, chat.session_id);
    await expect(bubble(page, kept)).toBeVisible();
    await expect(bubble(page, hidden)).toHaveCount(0);
  });

  test('delete for all: my message shows as deleted, also after a reload', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const chat = await receiveChat(parley, freshSeat, ['Hello?']);
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    const mine = `Oops, wrong chat ${randomBytes(3).toString('hex')}`;
    await send(page, mine);
    const msgId = await bubble(page, mine).getAttribute('data-msg-id');

    await (await bubbleMenu(page, mine)).getByTestId('message-action-delete').click();
    const dialog = page.getByTestId('delete-message-dialog');
    await dialog.getByTestId('delete-scope-all').check();
    await dialog.getByTestId('delete-message-confirm').click();
    await expect(dialog).toHaveCount(0);
    const retracted = page.locator(`[data-testid="message-item"][data-msg-id="${msgId}"]`);
    await expect(retracted.getByTestId('message-text')).toHaveText('This message was deleted');
    await expect(bubble(page, mine)).toHaveCount(0);

    await page.reload();
    await openChat(page, chat.session_id);
    await expect(retracted.getByTestId('message-text')).toHaveText('This message was deleted');
    await expect(bubble(page, 'Hello?')).toBeVisible();
  });

  test('delete for all after the time window: refused with the translated 400003, nothing changes', async ({
    page,
    baseURL,
  }) => {
    // The demo workspace holds old outgoing messages; a refused delete changes nothing there.
    const token = await demoToken(baseURL!);
    const cutoff = Date.now() - (WINDOW_MINUTES + 5) * 60_000;
    let target: { chat: Awaited<ReturnType<typeof findDemoChats>>[number]; text: string } | null =
      null;
    for (const chat of await findDemoChats(baseURL!, token, (s) => s.user_time_type === 2)) {
      const record = await call(
        baseURL!,
        '/v1/seat/chat/getChatRecord',
        { send_phone: chat.session.send_phone, receiver_phone: chat.session.receiver_phone },
        token,
      );
      // Among the last few messages, so the virtualised list shows it without scrolling.
      const old = record.list
        .slice(-4)
        .find(
          (m) =>
            m.direction === 'out' &&
            m.type === 'text' &&
            !m.deleted &&
            m.created_at < cutoff &&
            record.list.filter((x) => x.content === m.content).length === 1,
        );
      if (old) {
        target = { chat, text: old.content };
        break;
      }
    }
    expect(target, 'the demo workspace has an old outgoing text message').not.toBeNull();
    const { chat, text } = target!;

    await signIn(page, DEMO.account, DEMO.password);
    await groupItem(page, chat.group.group_id).click();
    await page.getByTestId('time-tab-2').click();
    await (await revealUserItem(page, chat.session.session_id)).click();
    await expect(bubble(page, text)).toBeVisible();

    await (await bubbleMenu(page, text)).getByTestId('message-action-delete').click();
    const dialog = page.getByTestId('delete-message-dialog');
    await dialog.getByTestId('delete-scope-all').check();
    await dialog.getByTestId('delete-message-confirm').click();
    await expect(toast(page, ERROR_MESSAGES['400003'])).toBeVisible();
    await expect(toast(page, ERROR_MESSAGES['400003'])).toContainText(
      `“For all” is only possible within ${WINDOW_MINUTES} minutes of sending`,
    );
    // The dialog stays open for another choice; the message is untouched.
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('confirm-cancel').click();
    await expect(bubble(page, text)).toBeVisible();
  });

  test('translate asks for translation to be enabled first; enabled without an engine, the chat says so', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const text = `Hola, necesito ayuda ${randomBytes(3).toString('hex')}`;
    const chat = await receiveChat(parley, freshSeat, [text]);
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    await (await bubbleMenu(page, text)).getByTestId('message-action-translate').click();
    await expect(toast(page, 'Translation must be enabled before translating')).toBeVisible();

    // Enabled in the stored settings; this test server has no translation engine configured.
    await page.evaluate(() => {
      const stored = JSON.parse(window.localStorage.getItem('translate') ?? '{}') as object;
      window.localStorage.setItem('translate', JSON.stringify({ ...stored, isEnable: true }));
    });
    await page.reload();
    await openChat(page, chat.session_id);
    await (await bubbleMenu(page, text)).getByTestId('message-action-translate').click();
    await expect(page.getByTestId('message-context-menu')).toBeHidden();
    const notice = page.getByTestId('translation-unserved');
    await expect(notice).toHaveAttribute('data-reason', 'not_configured');
    await expect(notice).toContainText('No translation engine is configured on the server.');
    await expect(notice).toContainText('An engine such as DeepL or LibreTranslate would serve it.');
    await expect(toast(page, 'Translation error')).toHaveCount(0);
    await expect(bubble(page, text).getByTestId('message-translation')).toHaveCount(0);
    await expect(toast(page, 'Translation must be enabled before translating')).toHaveCount(0);
    // The settings dialog cannot tell the engine's languages either.
    await page.getByTestId('translation-settings-open').click();
    await expect(page.getByTestId('translation-languages-error')).toContainText(
      'Failed to get language list',
    );
  });
});

test('a chat opened at a search hit: a message deleted there leaves that view at once', async ({
  page,
  parley,
  freshSeat,
}) => {
  const t = randomBytes(4).toString('hex');
  const hit = `The parcel needle-${t} is late`;
  const hidden = `Hide me in the window ${t}`;
  await receiveChat(parley, freshSeat, [hit, hidden]);
  // No push: the view must follow the delete's own answer, not the message.deleted event.
  await page.routeWebSocket('**/v1/seat/realtime', () => undefined);
  await signIn(page, freshSeat.account, freshSeat.password);

  await page.getByTestId('message-search-open').click();
  await page.getByTestId('message-search-input').fill(`needle-${t}`);
  await page.getByTestId('message-search-submit').click();
  await page.getByTestId('message-search-hit').first().click();
  await expect(page.locator('[data-highlighted="true"] [data-testid="message-item"]')).toHaveCount(
    1,
  );

  await (await bubbleMenu(page, hidden)).getByTestId('message-action-delete').click();
  const dialog = page.getByTestId('delete-message-dialog');
  await dialog.getByTestId('delete-message-confirm').click();
  await expect(dialog).toHaveCount(0);
  await expect(bubble(page, hidden)).toHaveCount(0);
  await expect(bubble(page, hit)).toBeVisible();
});
