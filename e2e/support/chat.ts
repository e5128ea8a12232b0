import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { ChatMessage, SessionItem } from '@parley/protocol';
import { apiLogin, call } from './api';
import { revealUserItem, signIn } from './app';
import { expect, type Seat } from './fixtures';
import type { ParleyServer } from './server';

/** The bubble whose text is exactly `text`. */
export function bubble(page: Page, text: string): Locator {
  return page
    .getByTestId('message-item')
    .filter({ has: page.getByTestId('message-text').getByText(text, { exact: true }) });
}

/** A customer number nobody else uses. */
export function customerPhone(): string {
  return `+4479${String(randomBytes(4).readUInt32BE()).padStart(10, '0').slice(0, 8)}`;
}

export interface FreshChat {
  token: string;
  session: SessionItem;
  customer: string;
}

/**
 * A customer writes to the seat's account (the chat lands in Ungrouped, last 24 hours); the
 * seat signs in through the login screen and opens it.
 */
export async function openFreshChat(
  page: Page,
  server: Pick<ParleyServer, 'cli' | 'url'>,
  seat: Seat,
  firstText = 'Hello from the customer',
): Promise<FreshChat> {
  const customer = customerPhone();
  await server.cli('chat:receive', seat.phone, customer, firstText);
  const { token } = await apiLogin(server.url, seat.account, seat.password);
  const session = await findSession(server.url, token, customer);
  await signIn(page, seat.account, seat.password);
  await openChat(page, session.session_id);
  return { token, session, customer };
}

/** Opens a chat of the (already selected) Ungrouped group, last-24-hours tab. */
export async function openChat(page: Page, sessionId: number): Promise<void> {
  await page.getByTestId('time-tab-1').click();
  const item = await revealUserItem(page, sessionId);
  await item.click();
  await expect(item).toHaveAttribute('data-active', 'true');
  await expect(page.getByTestId('message-list')).toBeVisible();
}

export async function findSession(
  baseURL: string,
  token: string,
  customer: string,
): Promise<SessionItem> {
  const { group_list } = await call(baseURL, '/v1/seat/chat/getGroupList', { reply: 0 }, token);
  for (const group of group_list) {
    for (const tab of [1, 2] as const) {
      const page = await call(
        baseURL,
        '/v1/seat/chat/getGroupInfo',
        { group_id: group.group_id, user_time_type: tab, reply: 0, page_size: 200 },
        token,
      );
      const hit = page.account_list.find((s) => s.receiver_phone === customer);
      if (hit) return hit;
    }
  }
  throw new Error(`no chat with ${customer}`);
}

/** The newest messages of a chat as the server holds them (oldest first). */
export async function chatRecord(
  baseURL: string,
  token: string,
  session: SessionItem,
): Promise<ChatMessage[]> {
  const page = await call(
    baseURL,
    '/v1/seat/chat/getChatRecord',
    {
      send_phone: session.send_phone,
      receiver_phone: session.receiver_phone,
      page_size: 200,
    },
    token,
  );
  return page.list;
}

/** Message texts the server holds for the chat, in order. */
export async function storedTexts(
  baseURL: string,
  token: string,
  session: SessionItem,
): Promise<string[]> {
  return (await chatRecord(baseURL, token, session)).map((m) => m.content);
}

/** A text unlikely to be typed twice. */
export function uniqueText(prefix: string): string {
  return `${prefix} ${randomBytes(4).toString('hex')}`;
}
