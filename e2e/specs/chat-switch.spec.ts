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

/**
 * Issue 25: a switch paints the new chat's header at once and builds its messages and composer
 * in a deferred render. Every state the page went through (each DOM change, recorded in the
 * page) shows the header's chat with its own messages or none (the skeleton): never the chat
 * just left, whether the chat opened is fetched or already cached, and the composer is empty.
 */
test("a switch never shows the previous chat's messages, even before the new ones are built", async ({
  page,
  parley,
  freshSeat,
}) => {
  const { chats } = await seedChats(parley, freshSeat, 3);
  const phones = chats.map((c) => c.receiver_phone);
  await signIn(page, freshSeat.account, freshSeat.password);
  await openChatIn(page, chats[0]!.group_id, chats[0]!.session_id);
  await expect(bubbles(page, `Hello from ${phones[0]}`)).toHaveCount(1);
  await page.evaluate(() => {
    const w = window as unknown as { __states: { title: string | null; texts: string[] }[] };
    w.__states = [];
    new MutationObserver(() =>
      w.__states.push({
        title: document.querySelector('[data-testid="chat-title"]')?.textContent ?? null,
        texts: [...document.querySelectorAll('[data-testid="message-text"]')].map(
          (e) => e.textContent ?? '',
        ),
      }),
    ).observe(document.body, { childList: true, subtree: true, characterData: true });
  });

  // First visits (fetched), then back to chats already cached.
  for (const i of [1, 2, 0, 1, 2, 0]) {
    await userItem(page, chats[i]!.session_id).click();
    await expect(page.getByTestId('chat-title')).toHaveText(phones[i]!);
    await expect(bubbles(page, `Hello from ${phones[i]}`)).toHaveCount(1);
    await expect(page.getByTestId('composer-input')).toHaveValue('');
  }

  const states = await page.evaluate(
    () => (window as unknown as { __states: { title: string | null; texts: string[] }[] }).__states,
  );
  expect(states.length).toBeGreaterThan(6);
  const wrong = states.filter(
    (s) => s.title !== null && s.texts.some((text) => text !== `Hello from ${s.title}`),
  );
  expect(wrong).toEqual([]);
  // The skeleton stood between the chats at least once (the deferred render was seen).
  expect(states.some((s) => s.title !== null && s.texts.length === 0)).toBe(true);
});
