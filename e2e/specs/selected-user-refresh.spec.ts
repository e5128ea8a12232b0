import { GROUP_LIST_POLL_MS } from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import { call } from '../support/api';
import { openFreshChat, uniqueText } from '../support/chat';
import { jumpToPoll } from '../support/clock';

/**
 * Spec section 4: refreshing a user list updates the selected user unless only add_time,
 * latest_time or un_read_count differ. A change made elsewhere reaches the open chat through
 * the user-list poll (every 10 s), without reopening it.
 */
test('the polled user list updates the open chat (a remark, a new message)', async ({
  page,
  parley,
  freshSeat,
}) => {
  test.setTimeout(90_000);
  // A fake clock that runs normally until the test jumps it to the next poll.
  await page.clock.install();
  const { token, session } = await openFreshChat(page, parley, freshSeat);
  const header = page.getByTestId('chat-send-phone');
  await expect(header).toHaveText(`via ${freshSeat.phone}`);
  await expect(page.getByTestId('composer-input')).toBeEnabled();

  // Another session sets a remark: the open chat's header shows it after the next poll.
  const remark = uniqueText('VIP');
  await call(
    parley.url,
    '/v1/seat/chat/set_remark',
    { session_id: session.session_id, remark },
    token,
  );
  await jumpToPoll(page, '/v1/seat/chat/getGroupInfo', GROUP_LIST_POLL_MS);
  await expect(header).toHaveText(`via ${freshSeat.phone} · ${remark}`);

  // A new customer message only moves latest_time / un_read_count / last message: the chat
  // stays open and selected, and shows the message.
  const text = uniqueText('Customer writes again');
  await parley.cli('chat:receive', freshSeat.phone, session.receiver_phone, text);
  await expect(page.getByTestId('message-text').filter({ hasText: text })).toHaveCount(1, {
    timeout: 15_000,
  });
  await expect(header).toHaveText(`via ${freshSeat.phone} · ${remark}`);
});
