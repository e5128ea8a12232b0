import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { SessionItem } from '@parley/protocol';
import { apiLogin, call } from './api';
import { expect, type Seat } from './fixtures';
import type { ParleyServer } from './server';
import { groupList, sessionsOf } from './demo';
import { groupItem, userItem } from './app';

/** A customer number no other test uses (the protocol's format: + and 5-20 digits). */
export function customerPhone(): string {
  const digits = [...randomBytes(8)].map((b) => String(b % 10)).join('');
  return `+447${digits}`;
}

export async function seatToken(baseURL: string, seat: Seat): Promise<string> {
  return (await apiLogin(baseURL, seat.account, seat.password)).token;
}

/**
 * A customer's messages through the admin CLI (the chat lands in Ungrouped on first contact),
 * then the chat as the API lists it.
 */
export async function receiveChat(
  parley: ParleyServer,
  seat: Seat,
  texts: string[],
  opts: { account?: string; customer?: string } = {},
): Promise<SessionItem> {
  const customer = opts.customer ?? customerPhone();
  const account = opts.account ?? seat.phone;
  for (const text of texts) await parley.cli('chat:receive', account, customer, text);
  const token = await seatToken(parley.url, seat);
  return findSession(parley.url, token, customer);
}

/** The seat's chat with a customer, wherever it is listed. */
export async function findSession(
  baseURL: string,
  token: string,
  customer: string,
): Promise<SessionItem> {
  const { group_list } = await groupList(baseURL, token);
  for (const group of group_list) {
    for (const tab of [1, 2] as const) {
      const found = (await sessionsOf(baseURL, token, group.group_id, tab)).find(
        (s) => s.receiver_phone === customer,
      );
      if (found) return found;
    }
  }
  throw new Error(`no chat with ${customer}`);
}

export async function createGroup(baseURL: string, token: string, name: string) {
  const res = await call(
    baseURL,
    '/v1/seat/chat/doGroup',
    { type: 'add', group_name: name },
    token,
  );
  return res.group;
}

/** The group of a built-in type in the group list. */
export function builtInGroup(page: Page, type: 'ungrouped' | 'blocked' | 'tg_link_pushed') {
  return page.locator(`[data-testid="group-item"][data-group-type="${type}"]`);
}

/** The session ids of the user list, top to bottom. */
export async function listedIds(page: Page): Promise<number[]> {
  const ids = await page
    .getByTestId('user-item')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-session-id'))));
  return ids;
}

/** Opens a listed chat (the current group and tab) and waits for its pane. */
export async function openChat(page: Page, sessionId: number): Promise<Locator> {
  const row = userItem(page, sessionId);
  await row.click();
  await expect(row).toHaveAttribute('data-active', 'true');
  await expect(page.getByTestId('chat-pane')).not.toHaveAttribute('data-empty', 'true');
  return row;
}

/** Right-clicks a user-list row and returns its context menu. */
export async function rowMenu(page: Page, sessionId: number): Promise<Locator> {
  await userItem(page, sessionId).click({ button: 'right' });
  const menu = page.getByTestId('user-context-menu');
  await expect(menu).toBeVisible();
  return menu;
}

export async function selectGroupRow(page: Page, groupId: number): Promise<void> {
  await groupItem(page, groupId).click();
  await expect(groupItem(page, groupId)).toHaveAttribute('data-active', 'true');
}

/** The message bubble whose text is exactly `text`. */
export function bubble(page: Page, text: string): Locator {
  return page
    .getByTestId('message-item')
    .filter({ has: page.getByTestId('message-text').getByText(text, { exact: true }) });
}
