import type { Page } from '@playwright/test';
import { test, restartableTest, expect } from '../support/fixtures';
import { expectBadge, revealUserItem, signIn, userItem } from '../support/app';
import { bubble, customerPhone, openFreshChat, uniqueText } from '../support/chat';
import { receiveChat } from '../support/chats';

/**
 * Push: a customer's message (from another process: the CLI) reaches the open console by the
 * WebSocket, not by the 10-second poll; the console shows when it is offline and, once back,
 * resumes without losing or doubling anything; a hidden tab counts new messages in its title.
 */

// Several CLI runs (a Node start each) per test.
test.describe.configure({ timeout: 120_000 });

/** Emulates the tab being hidden or shown (the visibility API as the browser reports it). */
async function setVisibility(page: Page, state: 'hidden' | 'visible') {
  await page.evaluate((s) => {
    Object.defineProperty(document, 'visibilityState', { value: s, configurable: true });
    Object.defineProperty(document, 'hidden', { value: s === 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}

test('a customer message appears in the open chat and a new chat in the list, pushed', async ({
  page,
  parley: server,
  freshSeat,
}) => {
  const { customer } = await openFreshChat(page, server, freshSeat);
  const text = uniqueText('Pushed to the open chat');
  await server.cli('chat:receive', freshSeat.phone, customer, text);
  // The open chat's record is never polled: only the push can bring it.
  await expect(bubble(page, text)).toHaveCount(1);
  await expect(bubble(page, text)).toHaveAttribute('data-direction', 'in');

  // A new customer: the chat joins the list (sooner than the 10-second poll could).
  const newcomer = customerPhone();
  await server.cli('chat:receive', freshSeat.phone, newcomer, uniqueText('First contact'));
  await expect(
    page.locator(`[data-testid="user-item"][data-receiver-phone="${newcomer}"]`),
  ).toBeVisible({ timeout: 5_000 });

  // Hidden tab: the title counts the customer's messages; shown again, the count goes.
  await setVisibility(page, 'hidden');
  await server.cli('chat:receive', freshSeat.phone, customer, uniqueText('While away'));
  await expect(page).toHaveTitle(/^\(1\) /);
  await server.cli('chat:receive', freshSeat.phone, newcomer, uniqueText('Also while away'));
  await expect(page).toHaveTitle(/^\(2\) /);
  await setVisibility(page, 'visible');
  await expect(page).not.toHaveTitle(/^\(\d+\) /);
});

test('"mark all read" in one console clears the chat list badges of another console of the seat, pushed', async ({
  page,
  browser,
  parley: server,
  freshSeat,
}) => {
  const a = await receiveChat(server, freshSeat, ['a1', 'a2']);
  const b = await receiveChat(server, freshSeat, ['b1']);
  await signIn(page, freshSeat.account, freshSeat.password);

  // A second console of the same seat (another browser), its push socket up.
  const context = await browser.newContext({ baseURL: server.url });
  const other = await context.newPage();
  let socketReady = false;
  other.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      if (String(f.payload).includes('"kind":"ready"')) socketReady = true;
    }),
  );
  await signIn(other, freshSeat.account, freshSeat.password);
  await expect.poll(() => socketReady).toBe(true);
  await expectBadge(userItem(other, a.session_id).getByTestId('user-unread'), 2);
  await expectBadge(userItem(other, b.session_id).getByTestId('user-unread'), 1);
  // From here the second console's chat list cannot be refreshed by its poll: only the push
  // can clear its badges.
  await other.route('**/v1/seat/chat/getGroupInfo', (route) => route.abort());

  await page.getByTestId('read-all').click();
  await page.getByTestId('read-all-confirm').getByTestId('confirm-ok').click();
  await expectBadge(page.getByTestId('total-unread'), 0);

  await expectBadge(other.getByTestId('user-unread'), 0);
  await expectBadge(other.getByTestId('total-unread'), 0);
  await expectBadge(other.getByTestId('group-unread'), 0);
  await expect(userItem(other, a.session_id)).toBeVisible();
  await expect(userItem(other, b.session_id)).toBeVisible();
  await context.close();
});

test('a message that arrives before the push socket is up is not lost: the first connection refetches', async ({
  page,
  parley: server,
  freshSeat,
}) => {
  // The socket is held back while the console loads and the chat opens.
  let release = false;
  await page.routeWebSocket('**/v1/seat/realtime', (ws) => {
    if (release) ws.connectToServer();
  });
  const { customer } = await openFreshChat(page, server, freshSeat);
  const text = uniqueText('Arrived before the socket');
  await server.cli('chat:receive', freshSeat.phone, customer, text);

  // Now it connects (the browser's online event makes it try at once): nothing to resume
  // from, so it fetches again what it showed, and the message is there, once.
  release = true;
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(bubble(page, text)).toHaveCount(1, { timeout: 5_000 });
});

test('a message pushed while the chat is being fetched is not undone by that older answer', async ({
  page,
  parley: server,
  freshSeat,
}) => {
  const chat = await receiveChat(server, freshSeat, [uniqueText('Before the fetch')]);
  await signIn(page, freshSeat.account, freshSeat.password);
  await page.getByTestId('time-tab-1').click();
  // The chat's first fetch reads the server, then its answer is held until a newer message
  // has been pushed and applied: it lands older than what the console already knows.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let read!: () => void;
  const fetched = new Promise<void>((resolve) => (read = resolve));
  let first = true;
  await page.route('**/v1/seat/chat/getChatRecord', async (route) => {
    if (!first) return route.continue();
    first = false;
    const response = await route.fetch();
    read();
    await held;
    await route.fulfill({ response });
  });
  await (await revealUserItem(page, chat.session_id)).click();
  await fetched;
  const text = uniqueText('Pushed while the chat was fetched');
  await server.cli('chat:receive', freshSeat.phone, chat.receiver_phone, text);
  await expect(userItem(page, chat.session_id).getByTestId('user-preview')).toContainText(text);
  release();
  await expect(bubble(page, text)).toHaveCount(1);
});

test('the new-message sound can be muted, and stays muted in this browser', async ({
  page,
  freshSeat,
}) => {
  await signIn(page, freshSeat.account, freshSeat.password);
  await page.getByTestId('user-menu').click();
  const sound = page.getByTestId('operator-sound');
  await expect(sound).toBeChecked();
  await sound.uncheck();
  await page.reload();
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('operator-sound')).not.toBeChecked();
});

restartableTest(
  'offline while the server is down; back, a message sent meanwhile appears once',
  async ({ page, server, freshSeat }) => {
    const { customer } = await openFreshChat(page, server, freshSeat);
    await expect(page.getByTestId('realtime-offline')).toHaveCount(0);

    await server.halt();
    await expect(page.getByTestId('realtime-offline')).toBeVisible();
    const text = uniqueText('Sent while the server was down');
    await server.cli('chat:receive', freshSeat.phone, customer, text);
    await server.resume();

    // Reconnected (with back-off) and resumed from the last event it had.
    await expect(page.getByTestId('realtime-offline')).toHaveCount(0, { timeout: 40_000 });
    await expect(bubble(page, text)).toHaveCount(1);
    // A live one after the reconnect, and still each once.
    const after = uniqueText('After the reconnect');
    await server.cli('chat:receive', freshSeat.phone, customer, after);
    await expect(bubble(page, after)).toHaveCount(1);
    await expect(bubble(page, text)).toHaveCount(1);
  },
);
