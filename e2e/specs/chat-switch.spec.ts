import { test, expect } from '../support/fixtures';
import { signIn, userItem } from '../support/app';
import { openChatIn, seedChats } from '../support/seed-chats';
import { bubbles } from '../support/seed-chats';

test('switching chats shows a placeholder of the message list until the messages come', async ({
  page,
  parley,
  freshSeat,
}) => {
  const { chats } = await seedChats(parley, freshSeat, 2);
  const [first, second] = [chats[0]!, chats[1]!];
  await signIn(page, freshSeat.account, freshSeat.password);
  await openChatIn(page, first.group_id, first.session_id);
  await expect(bubbles(page, `Hello from ${first.receiver_phone}`)).toHaveCount(1);

  // The second chat's record is held back until the placeholder has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/v1/seat/chat/getChatRecord', async (route) => {
    await held;
    await route.continue();
  });
  await userItem(page, second.session_id).click();
  const skeleton = page.getByTestId('message-list-skeleton');
  await expect(skeleton).toBeVisible();
  await expect(page.getByTestId('message-item')).toHaveCount(0);

  release();
  await expect(bubbles(page, `Hello from ${second.receiver_phone}`)).toHaveCount(1);
  await expect(skeleton).toHaveCount(0);
});
