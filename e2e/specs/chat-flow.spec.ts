import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { test, expect, DEMO } from '../support/fixtures';
import { expectBadge, groupItem, revealUserItem, signIn, userItem } from '../support/app';
import { demoToken, findDemoChats, groupList, tabOf, type TimeTab } from '../support/demo';

/** The bubble whose text is exactly `text`. */
function bubble(page: Page, text: string): Locator {
  return page
    .getByTestId('message-item')
    .filter({ has: page.getByTestId('message-text').getByText(text, { exact: true }) });
}

async function openChat(page: Page, groupId: number, tab: TimeTab, sessionId: number) {
  await groupItem(page, groupId).click();
  await expect(groupItem(page, groupId)).toHaveAttribute('data-active', 'true');
  await page.getByTestId(`time-tab-${tab}`).click();
  const item = await revealUserItem(page, sessionId);
  await item.click();
  await expect(item).toHaveAttribute('data-active', 'true');
  await expect(page.getByTestId('chat-pane')).toBeVisible();
  return item;
}

test.describe('the chat console (demo workspace)', () => {
  test('open a chat with unread messages, the counts drop, send a message that persists', async ({
    page,
    baseURL,
  }) => {
    const token = await demoToken(baseURL!);
    const [target] = await findDemoChats(baseURL!, token, (s) => s.un_read_count > 0);
    expect(target, 'the demo workspace has a chat with unread messages').toBeDefined();
    const { group, tab, session } = target!;
    const unread = session.un_read_count;
    const counts = await groupList(baseURL!, token);
    const tabTotal = tab === 1 ? counts.seat_one_seat_msg_count : counts.seat_two_seat_msg_count;

    await signIn(page, DEMO.account, DEMO.password);

    // The console shows the groups with their unread badges and the totals.
    await expect(page.getByTestId('group-item')).toHaveCount(counts.group_list.length);
    await expectBadge(page.getByTestId('total-unread'), counts.un_read_count);
    for (const g of counts.group_list) {
      await expectBadge(groupItem(page, g.group_id).getByTestId('group-unread'), g.un_read);
    }
    await expectBadge(page.getByTestId(`time-tab-${tab}-unread`), tabTotal);

    // Select the group and time tab: the chat is listed with its unread badge.
    await groupItem(page, group.group_id).click();
    await page.getByTestId(`time-tab-${tab}`).click();
    await expect(page.getByTestId('empty-chat')).toBeVisible();
    const item = await revealUserItem(page, session.session_id);
    await expectBadge(item.getByTestId('user-unread'), unread);

    // Open it: its badge goes, and the group, total and tab counts drop by exactly its unread.
    await item.click();
    await expect(item).toHaveAttribute('data-active', 'true');
    await expect(page.getByTestId('chat-title')).toContainText(session.receiver_phone);
    await expect(page.getByTestId('empty-chat')).toHaveCount(0);
    await expectBadge(item.getByTestId('user-unread'), 0);
    await expectBadge(
      groupItem(page, group.group_id).getByTestId('group-unread'),
      group.un_read - unread,
    );
    await expectBadge(page.getByTestId('total-unread'), counts.un_read_count - unread);
    await expectBadge(page.getByTestId(`time-tab-${tab}-unread`), tabTotal - unread);
    // The other groups are untouched.
    for (const g of counts.group_list) {
      if (g.group_id === group.group_id) continue;
      await expectBadge(groupItem(page, g.group_id).getByTestId('group-unread'), g.un_read);
    }

    // Send a message with Enter: it shows as an outgoing, sent message.
    const text = `Hello from the browser test ${randomBytes(4).toString('hex')}`;
    const composer = page.getByTestId('composer-input');
    await composer.fill(text);
    await composer.press('Enter');
    await expect(composer).toHaveValue('');
    const sent = bubble(page, text);
    await expect(sent).toHaveCount(1);
    await expect(sent).toHaveAttribute('data-direction', 'out');
    await expect(sent).toHaveAttribute('data-status', 'sent');

    // Reload: the chat stays read (cleared on the server, not only on screen), and the
    // message is still there, once.
    await page.reload();
    await expect(page.getByTestId('group-list')).toBeVisible();
    // The selected group is kept (stored locally).
    await expect(groupItem(page, group.group_id)).toHaveAttribute('data-active', 'true');
    await expectBadge(page.getByTestId('total-unread'), counts.un_read_count - unread);
    await expectBadge(
      groupItem(page, group.group_id).getByTestId('group-unread'),
      group.un_read - unread,
    );
    const tabNow = await tabOf(baseURL!, token, group.group_id, session.session_id);
    await page.getByTestId(`time-tab-${tabNow}`).click();
    const again = await revealUserItem(page, session.session_id);
    await expectBadge(again.getByTestId('user-unread'), 0);
    await again.click();
    await expect(again).toHaveAttribute('data-active', 'true');
    await expect(bubble(page, text)).toHaveCount(1);
    await expect(bubble(page, text)).toHaveAttribute('data-direction', 'out');
    await expect(bubble(page, text)).toHaveAttribute('data-status', 'sent');
  });

  test('Shift+Enter inserts a new line; Enter sends the multi-line message', async ({
    page,
    baseURL,
  }) => {
    const token = await demoToken(baseURL!);
    const [target] = await findDemoChats(baseURL!, token, () => true);
    expect(target, 'the demo workspace has a chat the seat can write to').toBeDefined();
    const { group, tab, session } = target!;

    await signIn(page, DEMO.account, DEMO.password);
    await openChat(page, group.group_id, tab, session.session_id);

    const tag = randomBytes(4).toString('hex');
    const first = `first line ${tag}`;
    const second = `second line ${tag}`;
    const composer = page.getByTestId('composer-input');
    const height = async () => (await composer.boundingBox())!.height;
    await composer.click();
    await page.keyboard.type(first);
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type(second);
    await expect(composer).toHaveValue(`${first}\n${second}`);
    // The box grows with its lines up to six, then scrolls.
    const twoLines = await height();
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+Enter');
    await expect.poll(height).toBeGreaterThan(twoLines + 40);
    const six = await height();
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+Enter');
    await page.waitForTimeout(200);
    expect(await height()).toBe(six);
    for (let i = 0; i < 8; i++) await page.keyboard.press('Backspace');
    await expect(composer).toHaveValue(`${first}\n${second}`);
    await expect(page.getByTestId('message-item').filter({ hasText: first })).toHaveCount(0);

    await page.keyboard.press('Enter');
    await expect(composer).toHaveValue('');
    const sent = page.getByTestId('message-item').filter({ hasText: first });
    await expect(sent).toHaveCount(1);
    await expect(sent).toHaveAttribute('data-direction', 'out');
    await expect(sent.getByTestId('message-text')).toHaveJSProperty(
      'innerText',
      `${first}\n${second}`,
    );
  });

  test('the chat list marks the selected chat and the composer sends with its button', async ({
    page,
    baseURL,
  }) => {
    const token = await demoToken(baseURL!);
    const [target] = await findDemoChats(baseURL!, token, () => true);
    expect(target).toBeDefined();
    const { group, tab, session } = target!;

    await signIn(page, DEMO.account, DEMO.password);
    await openChat(page, group.group_id, tab, session.session_id);
    await expect(page.locator('[data-testid="user-item"][data-active="true"]')).toHaveCount(1);
    await expect(userItem(page, session.session_id)).toHaveAttribute('data-active', 'true');

    const text = `Sent with the button ${randomBytes(4).toString('hex')}`;
    await page.getByTestId('composer-input').fill(text);
    await page.getByTestId('composer-send').click();
    await expect(bubble(page, text)).toHaveCount(1);
    await expect(bubble(page, text)).toHaveAttribute('data-direction', 'out');

    // Changing the group clears the selected chat.
    const other = (await groupList(baseURL!, token)).group_list.find(
      (g) => g.group_id !== group.group_id,
    );
    expect(other).toBeDefined();
    await groupItem(page, other!.group_id).click();
    await expect(page.getByTestId('empty-chat')).toBeVisible();
    await expect(page.locator('[data-testid="user-item"][data-active="true"]')).toHaveCount(0);
  });
});
