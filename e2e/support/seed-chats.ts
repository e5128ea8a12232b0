import type { Locator, Page } from '@playwright/test';
import type { SessionItem } from '@parley/protocol';
import { apiLogin, call } from './api';
import { expect, type Seat } from './fixtures';
import type { ParleyServer } from './server';
import { groupItem, revealUserItem } from './app';
import { customerPhone } from './chats';

/**
 * Chats of a fresh seat: each customer writes first (the CLI's chat:receive), so each chat
 * lands in Ungrouped; answers the chats as the server lists them, in the customers' order.
 */
export async function seedChats(
  parley: ParleyServer,
  seat: Seat,
  count: number,
): Promise<{ token: string; chats: SessionItem[] }> {
  const customers = Array.from({ length: count }, customerPhone);
  for (const c of customers) await parley.cli('chat:receive', seat.phone, c, `Hello from ${c}`);
  const { token } = await apiLogin(parley.url, seat.account, seat.password);
  const groups = await call(parley.url, '/v1/seat/chat/getGroupList', { reply: 0 }, token);
  const ungrouped = groups.group_list.find((g) => g.group_type === 'ungrouped')!;
  const page = await call(
    parley.url,
    '/v1/seat/chat/getGroupInfo',
    { group_id: ungrouped.group_id, user_time_type: 1, page_size: 200 },
    token,
  );
  const chats = customers.map((c) => page.account_list.find((s) => s.receiver_phone === c)!);
  return { token, chats };
}

/** Setup through the API: a custom group holding `chats`. */
export async function groupWith(
  baseURL: string,
  token: string,
  name: string,
  chats: SessionItem[],
): Promise<number> {
  const { group } = await call(
    baseURL,
    '/v1/seat/chat/doGroup',
    { type: 'add', group_name: name },
    token,
  );
  for (const s of chats) {
    await call(
      baseURL,
      '/v1/seat/chat/moveSessionGroup',
      { session_id: s.session_id, group_id: group.group_id },
      token,
    );
  }
  return group.group_id;
}

/** Opens a chat of the recent tab of a group from the console. */
export async function openChatIn(page: Page, groupId: number, sessionId: number): Promise<void> {
  await groupItem(page, groupId).click();
  await expect(groupItem(page, groupId)).toHaveAttribute('data-active', 'true');
  await page.getByTestId('time-tab-1').click();
  const item = await revealUserItem(page, sessionId);
  await item.click();
  await expect(item).toHaveAttribute('data-active', 'true');
  await expect(page.getByTestId('composer-input')).toBeEnabled();
}

/** The bubbles whose text is exactly `text` (all of them, to count). */
export function bubbles(page: Page, text: string): Locator {
  return page
    .getByTestId('message-item')
    .filter({ has: page.getByTestId('message-text').getByText(text, { exact: true }) });
}
