import { test, expect } from '../support/fixtures';
import { bubble, openFreshChat, uniqueText } from '../support/chat';

/**
 * Issue 32: a console that sees a gap in its seat's event ids fetches what it missed at once,
 * with no reload and no error. Here one event frame of the real server's push socket is lost
 * on the way (dropped in the browser's route), as a server that skipped it would.
 */

// Two CLI runs (a Node start each).
test.describe.configure({ timeout: 120_000 });

test('a customer message whose push was lost appears in the open chat at once, no reload, no error', async ({
  page,
  parley: server,
  freshSeat,
}) => {
  const lost = uniqueText('Lost on the way');
  let dropped = 0;
  let sockets = 0;
  await page.routeWebSocket('**/v1/seat/realtime', (ws) => {
    sockets += 1;
    const toServer = ws.connectToServer();
    toServer.onMessage((frame) => {
      const text = String(frame);
      if (dropped === 0 && text.includes('"type":"message.created"') && text.includes(lost)) {
        dropped += 1;
        return;
      }
      ws.send(frame);
    });
  });
  const { customer } = await openFreshChat(page, server, freshSeat);
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));

  await server.cli('chat:receive', freshSeat.phone, customer, lost);
  const next = uniqueText('After the gap');
  await server.cli('chat:receive', freshSeat.phone, customer, next);

  // The open chat's record is never polled: only the push can bring them.
  await expect(bubble(page, next)).toHaveCount(1);
  await expect(bubble(page, lost)).toHaveCount(1);
  expect(dropped).toBe(1);
  // It resumed from the last event before the gap on a second socket, in the same page.
  expect(sockets).toBe(2);
  expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
  await expect(page.getByTestId('realtime-offline')).toHaveCount(0);
  // In the order they came, the lost one first.
  const texts = await page.getByTestId('message-list').innerText();
  expect(texts.indexOf(lost)).toBeLessThan(texts.indexOf(next));
});
