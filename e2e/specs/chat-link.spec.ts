import { test, expect } from '../support/fixtures';
import { signIn, userItem } from '../support/app';
import { openChat, receiveChat } from '../support/chats';

/** Issue 26: a chat has its own URL (/home/chat?chat=<session_id>). */
test.describe('a chat has its own link', () => {
  test('reload, another browser of the seat, back and forward land on the chat', async ({
    page,
    browser,
    parley,
    freshSeat,
  }) => {
    test.setTimeout(120_000);
    const first = await receiveChat(parley, freshSeat, ['First customer']);
    const second = await receiveChat(parley, freshSeat, ['Second customer']);
    await signIn(page, freshSeat.account, freshSeat.password);

    await openChat(page, first.session_id);
    await expect(page).toHaveURL(new RegExp(`/home/chat\\?chat=${first.session_id}$`));
    await openChat(page, second.session_id);
    await expect(page).toHaveURL(new RegExp(`/home/chat\\?chat=${second.session_id}$`));
    const link = page.url();

    await page.reload();
    await expect(page.getByTestId('chat-title')).toHaveText(second.receiver_phone);
    await expect(userItem(page, second.session_id)).toHaveAttribute('data-active', 'true');

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`chat=${first.session_id}$`));
    await expect(page.getByTestId('chat-title')).toHaveText(first.receiver_phone);
    await page.goForward();
    await expect(page).toHaveURL(new RegExp(`chat=${second.session_id}$`));
    await expect(page.getByTestId('chat-title')).toHaveText(second.receiver_phone);

    // The link pasted into another browser where the same seat is signed in.
    const context = await browser.newContext({ baseURL: parley.url });
    try {
      const other = await context.newPage();
      await signIn(other, freshSeat.account, freshSeat.password);
      await other.goto(link);
      await expect(other.getByTestId('chat-title')).toHaveText(second.receiver_phone);
    } finally {
      await context.close();
    }
  });

  test("another seat's chat, or one that no longer exists, shows the not-found state and nothing of it", async ({
    page,
    parley,
    freshSeat,
    createSeat,
  }) => {
    const stranger = await createSeat();
    const theirs = await receiveChat(parley, stranger, ['Private words of another seat']);
    await receiveChat(parley, freshSeat, ['Mine']);
    await signIn(page, freshSeat.account, freshSeat.password);
    const records: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v1/seat/chat/getChatRecord') {
        records.push(r.postData() ?? '');
      }
    });

    for (const id of [theirs.session_id, 987_654_321]) {
      await page.goto(`/home/chat?chat=${id}`);
      await expect(page.getByTestId('chat-not-found')).toBeVisible();
      await expect(page.getByTestId('chat-title')).toHaveCount(0);
      await expect(page.getByText(theirs.receiver_phone)).toHaveCount(0);
      await expect(page.getByText('Private words of another seat')).toHaveCount(0);
    }
    expect(records).toEqual([]);
  });

  test('on a phone the chat is a screen of its own: back returns to the list, scrolled where it was', async ({
    page,
    parley,
    freshSeat,
  }) => {
    test.setTimeout(180_000);
    const chats = [];
    for (let i = 0; i < 14; i += 1) chats.push(await receiveChat(parley, freshSeat, [`Hi ${i}`]));
    await signIn(page, freshSeat.account, freshSeat.password);
    await page.setViewportSize({ width: 390, height: 700 });
    const list = page.getByTestId('user-list');
    await expect(list.getByTestId('user-item').first()).toBeVisible();
    // The list's scrolling box, scrolled down by a few rows.
    const scrollTop = () =>
      list.evaluate((root) => {
        const box = [root, ...Array.from(root.querySelectorAll('*'))].find(
          (el) =>
            el.scrollHeight > el.clientHeight + 10 && getComputedStyle(el).overflowY !== 'visible',
        );
        return box ? box.scrollTop : -1;
      });
    await list.hover();
    await page.mouse.wheel(0, 400);
    await expect.poll(scrollTop).toBeGreaterThan(100);
    const row = list.getByTestId('user-item').filter({ visible: true }).nth(2);
    const id = Number(await row.getAttribute('data-session-id'));
    await row.click();
    await expect(page).toHaveURL(new RegExp(`chat=${id}$`));
    await expect(page.getByTestId('composer-input')).toBeVisible();
    await expect(list).toBeHidden();
    // Where the list was when the chat opened (the click may have scrolled the row into view).
    const kept = await scrollTop();
    expect(kept).toBeGreaterThan(50);

    await page.goBack();
    await expect(list).toBeVisible();
    await expect(page.getByTestId('composer-input')).toBeHidden();
    expect(await scrollTop()).toBe(kept);
  });
});
