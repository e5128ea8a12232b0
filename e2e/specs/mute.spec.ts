import type { Page } from '@playwright/test';
import { call } from '../support/api';
import { test as base, expect } from '../support/fixtures';
import { signIn, userItem } from '../support/app';
import { openChat, receiveChat, rowMenu, seatToken } from '../support/chats';

/**
 * Issue 37: a muted chat (not notified). Muted from the list's menu, the row shows the mark in
 * this console and the seat's other one, it survives a reload, and the chat header's menu
 * unmutes it.
 */
const test = base.extend<{ other: Page }>({
  /** The seat's other console: another browser signed in to the same seat. */
  other: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
});

test('mute from the menu: the mark shows in both consoles, survives a reload, and unmute clears it', async ({
  page,
  other,
  parley,
  freshSeat,
}) => {
  const chat = await receiveChat(parley, freshSeat, ['Please stop the notifications']);
  const token = await seatToken(parley.url, freshSeat);
  await signIn(page, freshSeat.account, freshSeat.password);
  await page.getByTestId('time-tab-1').click();
  await signIn(other, freshSeat.account, freshSeat.password);
  await other.getByTestId('time-tab-1').click();
  const mark = (p: Page) => userItem(p, chat.session_id).getByTestId('user-muted');
  await expect(userItem(page, chat.session_id)).toBeVisible();
  await expect(mark(page)).toHaveCount(0);

  const menu = await rowMenu(page, chat.session_id);
  await expect(menu.getByTestId('session-action-unmute')).toHaveCount(0);
  await menu.getByRole('menuitem', { name: 'Mute notifications' }).click();
  await expect(mark(page)).toBeVisible();
  await expect(mark(page)).toHaveAttribute('aria-label', 'Muted');
  // The seat's other console is told.
  await expect(mark(other)).toBeVisible();
  const stored = await call(parley.url, '/v1/seat/chat/mutedChats', {}, token);
  expect(stored.session_ids).toEqual([chat.session_id]);

  await page.reload();
  await page.getByTestId('time-tab-1').click();
  await expect(mark(page)).toBeVisible();

  // The chat header's menu offers the way back.
  await openChat(page, chat.session_id);
  await page.getByTestId('chat-actions').click();
  const header = page.getByTestId('chat-actions-menu');
  await expect(header.getByTestId('session-action-mute')).toHaveCount(0);
  await header.getByRole('menuitem', { name: 'Unmute' }).click();
  await expect(mark(page)).toHaveCount(0);
  await expect(mark(other)).toHaveCount(0);
  const after = await call(parley.url, '/v1/seat/chat/mutedChats', {}, token);
  expect(after.session_ids).toEqual([]);
});
