import type { Page } from '@playwright/test';
import { test, restartableTest, expect } from '../support/fixtures';
import { call } from '../support/api';
import { CHAT_URL, login, toast } from '../support/app';
import { bubble, openChat, openFreshChat, storedTexts, uniqueText } from '../support/chat';

/**
 * Sending never loses nor doubles a message: typed while the server is down, it waits and is
 * delivered once when the server is back; it survives a reload; a lost answer is not sent
 * twice; a refusal shows the reason with a retry. The test that stops the server has its
 * own (stopped and restarted on the same port and data directory); the others use the
 * worker's, with a seat of their own.
 */
test.describe.configure({ timeout: 120_000 });

async function type(page: Page, text: string) {
  const composer = page.getByTestId('composer-input');
  await composer.fill(text);
  await composer.press('Enter');
  await expect(composer).toHaveValue('');
}

/** The seat's stored outbox (localStorage `outbox:<seat_id>`), as the texts it holds. */
async function storedOutbox(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const info = JSON.parse(localStorage.getItem('userInfo') ?? 'null') as {
      seat_id: number;
    } | null;
    const raw = info ? localStorage.getItem(`outbox:${info.seat_id}`) : null;
    if (!raw) return [];
    return (JSON.parse(raw) as { items: { content: string }[] }).items.map((i) => i.content);
  });
}

restartableTest(
  'messages typed while the server is down wait, then are delivered once and in order',
  async ({ page, server, freshSeat }) => {
    const { token, session } = await openFreshChat(page, server, freshSeat);
    const first = uniqueText('Typed while the server was down');
    const second = uniqueText('And a second one');

    await server.halt();
    await type(page, first);
    await type(page, second);

    // The operator sees both at once, waiting for the server, in the order typed.
    for (const text of [first, second]) {
      await expect(bubble(page, text)).toHaveAttribute('data-status', 'waiting');
      await expect(bubble(page, text).getByTestId('message-waiting')).toBeVisible();
      await expect(bubble(page, text)).toHaveAttribute('data-direction', 'out');
    }
    const shown = page.getByTestId('message-text');
    await expect(shown.nth(-2)).toHaveText(first);
    await expect(shown.nth(-1)).toHaveText(second);
    expect(await storedOutbox(page)).toEqual([first, second]);

    await server.resume();

    // Sent by itself, each once.
    for (const text of [first, second]) {
      await expect(bubble(page, text)).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
      await expect(bubble(page, text)).toHaveCount(1);
      await expect(bubble(page, text).getByTestId('message-waiting')).toHaveCount(0);
    }
    await expect.poll(() => storedOutbox(page)).toEqual([]);

    // The server holds each exactly once, in the order typed.
    const texts = await storedTexts(server.url, token, session);
    expect(texts.filter((t) => t === first)).toHaveLength(1);
    expect(texts.filter((t) => t === second)).toHaveLength(1);
    expect(texts.indexOf(first)).toBeLessThan(texts.indexOf(second));

    // After a reload the chat shows them once, sent.
    await page.reload();
    await openChat(page, session.session_id);
    for (const text of [first, second]) {
      await expect(bubble(page, text)).toHaveCount(1);
      await expect(bubble(page, text)).toHaveAttribute('data-status', 'sent');
    }
  },
);

test('a reload while the server cannot be reached keeps the unsent message and sends it later', async ({
  page,
  parley: server,
  freshSeat,
}) => {
  const { token, session } = await openFreshChat(page, server, freshSeat);
  const text = uniqueText('Survives a reload');

  // The message call cannot reach the server (the rest of the app can, so the page reloads).
  await page.route('**/v1/seat/chat/message', (route) => route.abort('internetdisconnected'));
  await type(page, text);
  await expect(bubble(page, text)).toHaveAttribute('data-status', 'waiting');

  await page.reload();
  await openChat(page, session.session_id);
  await expect(bubble(page, text)).toHaveCount(1);
  await expect(bubble(page, text)).toHaveAttribute('data-status', 'waiting');
  expect(await storedOutbox(page)).toEqual([text]);
  expect(await storedTexts(server.url, token, session)).not.toContain(text);

  await page.unroute('**/v1/seat/chat/message');
  await expect(bubble(page, text)).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
  await expect(bubble(page, text)).toHaveCount(1);
  const texts = await storedTexts(server.url, token, session);
  expect(texts.filter((t) => t === text)).toHaveLength(1);
  await expect.poll(() => storedOutbox(page)).toEqual([]);

  await page.reload();
  await openChat(page, session.session_id);
  await expect(bubble(page, text)).toHaveCount(1);
  await expect(bubble(page, text)).toHaveAttribute('data-status', 'sent');
});

test('an answer lost on its way back does not double the message', async ({
  page,
  parley: server,
  freshSeat,
}) => {
  const { token, session } = await openFreshChat(page, server, freshSeat);
  const text = uniqueText('Stored, but the answer was lost');

  // The first request reaches the server (which stores the message); its answer is lost.
  let calls = 0;
  await page.route('**/v1/seat/chat/message', async (route) => {
    calls += 1;
    if (calls === 1) {
      await route.fetch();
      await route.abort('connectionreset');
    } else {
      await route.continue();
    }
  });
  await type(page, text);

  // The push may show the stored copy first; the outbox still resends, and the same
  // client_msg_id makes that resend answer the stored message.
  await expect(bubble(page, text)).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
  await expect.poll(() => calls, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await expect(bubble(page, text)).toHaveCount(1);
  const texts = await storedTexts(server.url, token, session);
  expect(texts.filter((t) => t === text)).toHaveLength(1);

  await page.reload();
  await openChat(page, session.session_id);
  await expect(bubble(page, text)).toHaveCount(1);
});

test('a refusal marks the message failed with the reason; retry and discard', async ({
  page,
  parley: server,
  freshSeat,
}) => {
  // This console hears no push (a socket that never answers), so it does not learn of the
  // block below and the server's refusal is what it meets.
  await page.routeWebSocket('**/v1/seat/realtime', () => undefined);
  const { token, session } = await openFreshChat(page, server, freshSeat);
  // Blocked elsewhere (another session) while this console still shows the chat as open.
  await call(server.url, '/v1/seat/chat/block', { session_id: session.session_id }, token);
  const text = uniqueText('Refused by the server');
  await type(page, text);

  const failed = bubble(page, text);
  await expect(failed).toHaveAttribute('data-status', 'failed');
  await expect(failed.getByTestId('message-error')).toHaveText('Failed to get permissions');
  await expect(toast(page, 'Failed to get permissions')).toBeVisible();
  await expect(failed.getByTestId('message-retry')).toBeVisible();
  expect(await storedOutbox(page)).toEqual([text]);

  // Unblocked again: the retry sends it, once.
  await call(server.url, '/v1/seat/chat/unblock', { session_id: session.session_id }, token);
  await failed.getByTestId('message-retry').click();
  await expect(bubble(page, text)).toHaveAttribute('data-status', 'sent');
  await expect(bubble(page, text)).toHaveCount(1);
  const texts = await storedTexts(server.url, token, session);
  expect(texts.filter((t) => t === text)).toHaveLength(1);

  // A refused message can also be discarded: it is gone, also after a reload.
  await call(server.url, '/v1/seat/chat/block', { session_id: session.session_id }, token);
  const dropped = uniqueText('Discarded after a refusal');
  await type(page, dropped);
  await expect(bubble(page, dropped)).toHaveAttribute('data-status', 'failed');
  await bubble(page, dropped).getByTestId('message-discard').click();
  await expect(bubble(page, dropped)).toHaveCount(0);
  await expect.poll(() => storedOutbox(page)).toEqual([]);
  expect(await storedTexts(server.url, token, session)).not.toContain(dropped);
});

test('logging out with unsent messages warns first; confirming discards them', async ({
  page,
  parley: server,
  freshSeat,
}) => {
  const { token, session } = await openFreshChat(page, server, freshSeat);
  const text = uniqueText('Unsent at logout');
  await page.route('**/v1/seat/chat/message', (route) => route.abort('internetdisconnected'));
  await type(page, text);
  await expect(bubble(page, text)).toHaveAttribute('data-status', 'waiting');

  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  const warning = page.getByTestId('unsent-logout-modal');
  await expect(warning).toContainText('1 message has not been sent yet. Logging out discards it.');
  await warning.getByTestId('confirm-cancel').click();
  await expect(warning).toHaveCount(0);
  await expect(bubble(page, text)).toHaveCount(1);
  await expect(page).toHaveURL(CHAT_URL);

  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await page.getByTestId('unsent-logout-modal').getByTestId('confirm-ok').click();
  await expect(page).toHaveURL(/\/login/);
  expect(await storedOutbox(page)).toEqual([]);
  const keys = await page.evaluate(() => Object.keys(localStorage));
  expect(keys.filter((k) => k.startsWith('outbox:'))).toEqual([]);

  await page.unroute('**/v1/seat/chat/message');
  await login(page, freshSeat.account, freshSeat.password);
  await openChat(page, session.session_id);
  await expect(page.getByTestId('message-item')).toHaveCount(1);
  await expect(bubble(page, text)).toHaveCount(0);
  expect(await storedTexts(server.url, token, session)).not.toContain(text);
});
