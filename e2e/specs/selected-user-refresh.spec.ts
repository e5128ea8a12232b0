import { test, expect } from '../support/fixtures';
import { call } from '../support/api';
import { openFreshChat, uniqueText } from '../support/chat';

/**
 * Spec section 4: refreshing a user list updates the selected user unless only add_time,
 * latest_time or un_read_count differ. A change made elsewhere reaches the open chat through
 * the push that refreshes the user list (the lists are not polled: issue 25), without
 * reopening it.
 */
test('a pushed change of the user list updates the open chat (a remark, a new message)', async ({
  page,
  parley,
  freshSeat,
}) => {
  test.setTimeout(90_000);
  const { token, session } = await openFreshChat(page, parley, freshSeat);
  const header = page.getByTestId('chat-send-phone');
  await expect(header).toHaveText(`via ${freshSeat.phone}`);
  await expect(page.getByTestId('composer-input')).toBeEnabled();

  // Another session sets a remark: the open chat's header shows it.
  const remark = uniqueText('VIP');
  await call(
    parley.url,
    '/v1/seat/chat/set_remark',
    { session_id: session.session_id, remark },
    token,
  );
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
