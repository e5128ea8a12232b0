import { randomBytes } from 'node:crypto';
import type { Locator, Page, Request } from '@playwright/test';
import { CUSTOMER_SEARCH_MIN, SEARCH_WORD_MIN } from '@parley/protocol';
import { apiLogin, call } from '../support/api';
import { test, expect, type Seat } from '../support/fixtures';
import { expectNoFieldError, fieldError, groupItem, signIn, userItem } from '../support/app';

const tag = () => randomBytes(4).toString('hex');
const customerPhone = () => `+4477${String(randomBytes(4).readUInt32BE() % 1e8).padStart(8, '0')}`;

/** The bubble whose text is exactly `text`. */
function bubble(page: Page, text: string): Locator {
  return page
    .getByTestId('message-item')
    .filter({ has: page.getByTestId('message-text').getByText(text, { exact: true }) });
}

/** The getChatRecord calls the page makes, by the anchor they carry. */
function recordAnchors(page: Page): string[] {
  const anchors: string[] = [];
  page.on('request', (req: Request) => {
    if (!req.url().endsWith('/v1/seat/chat/getChatRecord')) return;
    const body = JSON.parse(req.postData() ?? '{}') as Record<string, unknown>;
    anchors.push(
      ['around_id', 'before_id', 'after_id'].find((k) => body[k] !== undefined) ?? 'newest',
    );
  });
  return anchors;
}

/** Outgoing messages sent through the API with the seat's token (fast data for long chats). */
async function sendMany(
  baseURL: string,
  token: string,
  seat: Seat,
  customer: string,
  texts: string[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const content of texts) {
    const m = await call(
      baseURL,
      '/v1/seat/chat/message',
      {
        send_phone: seat.phone,
        receiver_phone: customer,
        content,
        client_msg_id: `e2e-${tag()}${tag()}`,
      },
      token,
    );
    ids.push(m.msg_id);
  }
  return ids;
}

async function openSearch(page: Page, word: string): Promise<Locator> {
  await page.getByTestId('message-search-open').click();
  const input = page.getByTestId('message-search-input');
  await input.fill(word);
  await page.getByTestId('message-search-submit').click();
  return input;
}

/** Scrolls the virtualised list under `list` until `target` is rendered. */
async function scrollUntil(page: Page, list: Locator, target: Locator, dy: number) {
  await expect
    .poll(
      async () => {
        if ((await target.count()) > 0) return true;
        await list.hover();
        await page.mouse.wheel(0, dy);
        return false;
      },
      { message: 'scrolled to the expected item', timeout: 45_000, intervals: [150] },
    )
    .toBe(true);
}

/** The newest message of a chat (a message just received through the CLI). */
async function latestId(baseURL: string, token: string, seat: Seat, customer: string) {
  const record = await call(
    baseURL,
    '/v1/seat/chat/getChatRecord',
    { send_phone: seat.phone, receiver_phone: customer, page_size: 1 },
    token,
  );
  return record.list[0]!.msg_id;
}

test.describe('message search', () => {
  test('a word shorter than 2 characters shows the message and sends nothing; from 2 the customers are searched, message text from 6', async ({
    page,
    freshSeat,
  }) => {
    const searches: string[] = [];
    const customerSearches: string[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/v1/seat/chat/searchMessage')) searches.push(req.postData() ?? '');
      if (req.url().endsWith('/v1/seat/chat/addressBook'))
        customerSearches.push(JSON.parse(req.postData() ?? '{}').keyword ?? '');
    });
    await signIn(page, freshSeat.account, freshSeat.password);
    // One character, padded, and one emoji (two UTF-16 units, one character).
    for (const word of ['a', '  b  ', '🎉']) {
      const input = await openSearch(page, word);
      const error = await fieldError(input);
      await expect(error).toHaveText(
        `Search word must be at least ${CUSTOMER_SEARCH_MIN} characters`,
      );
      await expect(page.getByTestId('message-search-text-short')).toHaveCount(0);
      await page.keyboard.press('Escape');
    }
    expect(searches).toEqual([]);
    expect(customerSearches).toEqual([]);

    // Two to five characters (and three emoji, six UTF-16 units): customers only; the dialog
    // says from how many characters message text is searched.
    for (const word of ['Wei', '  abcde  ', '🎉🎉🎉']) {
      const input = await openSearch(page, word);
      await expect(page.getByTestId('message-search-text-short')).toHaveText(
        `Message text is searched from ${SEARCH_WORD_MIN} characters.`,
      );
      await expectNoFieldError(input);
      await expect(page.getByTestId('message-search-results')).toHaveCount(0);
      await page.keyboard.press('Escape');
    }
    await expect.poll(() => customerSearches).toEqual(['Wei', 'abcde', '🎉🎉🎉']);
    expect(searches).toEqual([]);

    // Six characters search message text too (here: nothing found).
    const word = `zz${tag()}`.slice(0, 6);
    await openSearch(page, word);
    await expect(page.getByTestId('message-search-empty')).toBeVisible();
    await expect(page.getByTestId('message-search-text-short')).toHaveCount(0);
    expect(searches.map((s) => JSON.parse(s).keyword)).toEqual([word]);
  });

  test('a word too short after a search clears the previous results', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const word = `kiwi${tag()}`;
    await parley.cli('chat:receive', freshSeat.phone, customerPhone(), `I ordered ${word} twice`);
    await signIn(page, freshSeat.account, freshSeat.password);
    const input = await openSearch(page, word);
    const results = page.getByTestId('message-search-results');
    await expect(results.getByTestId('message-search-hit')).toHaveCount(1);

    // Too short for message text: the hits of the previous word go.
    await input.fill('kiwi');
    await page.getByTestId('message-search-submit').click();
    await expect(page.getByTestId('message-search-text-short')).toBeVisible();
    await expect(page.getByTestId('message-search-hit')).toHaveCount(0);

    await input.fill(word);
    await page.getByTestId('message-search-submit').click();
    await expect(results.getByTestId('message-search-hit')).toHaveCount(1);
    await input.fill('k');
    await page.getByTestId('message-search-submit').click();
    await expect(await fieldError(input)).toHaveText(
      `Search word must be at least ${CUSTOMER_SEARCH_MIN} characters`,
    );
    await expect(results).toHaveCount(0);
    await expect(page.getByTestId('message-search-hit')).toHaveCount(0);
  });

  test('a hit far back in a long chat opens it at the highlighted hit; scrolling loads older and newer', async ({
    page,
    parley,
    baseURL,
    freshSeat,
  }) => {
    test.setTimeout(150_000);
    const t = tag();
    const needle = `needle-${t}`;
    const alice = customerPhone();
    const bob = customerPhone();
    const { token } = await apiLogin(baseURL!, freshSeat.account, freshSeat.password);
    await parley.cli('chat:receive', freshSeat.phone, alice, `Hello, this is the start ${t}`);
    await sendMany(
      baseURL!,
      token,
      freshSeat,
      alice,
      Array.from({ length: 80 }, (_, i) => `older message ${i} ${t}`),
    );
    await parley.cli(
      'chat:receive',
      freshSeat.phone,
      alice,
      `My parcel is ${needle}, please check`,
    );
    const hitId = await latestId(baseURL!, token, freshSeat, alice);
    await sendMany(
      baseURL!,
      token,
      freshSeat,
      alice,
      Array.from({ length: 150 }, (_, i) => `newer message ${i} ${t}`),
    );
    // Another chat mentions the word later: it is the first (newest) hit.
    await parley.cli('chat:receive', freshSeat.phone, bob, `Bob also has ${needle.toUpperCase()}`);

    await signIn(page, freshSeat.account, freshSeat.password);
    const anchors = recordAnchors(page);
    await openSearch(page, needle);
    const hits = page.getByTestId('message-search-hit');
    await expect(hits).toHaveCount(2);
    await expect(hits.nth(0).getByTestId('message-search-hit-chat')).toContainText(bob);
    await expect(hits.nth(0).getByTestId('message-search-mark')).toHaveText(needle.toUpperCase());
    const aliceHit = hits.nth(1);
    await expect(aliceHit).toHaveAttribute('data-msg-id', String(hitId));
    await expect(aliceHit.getByTestId('message-search-hit-chat')).toContainText(alice);
    await expect(aliceHit.getByTestId('message-search-hit-text')).toContainText(
      `My parcel is ${needle}, please check`,
    );
    await expect(aliceHit.getByTestId('message-search-mark')).toHaveText(needle);

    // Open it: the chat is selected in its group, centred on the highlighted hit.
    await aliceHit.click();
    await expect(page.getByTestId('message-search-input')).toHaveCount(0);
    await expect(page.getByTestId('chat-title')).toHaveText(alice);
    const ungrouped = page.locator('[data-testid="group-item"][data-group-type="ungrouped"]');
    await expect(ungrouped).toHaveAttribute('data-active', 'true');
    const highlighted = page.locator('[data-highlighted="true"] [data-testid="message-item"]');
    await expect(highlighted).toHaveCount(1);
    await expect(highlighted).toHaveAttribute('data-msg-id', String(hitId));
    await expect(highlighted).toBeInViewport();
    await expect(highlighted.getByTestId('message-text')).toHaveText(
      `My parcel is ${needle}, please check`,
    );
    // Its neighbours are loaded; the newest messages are not (yet).
    await expect(bubble(page, `older message 79 ${t}`)).toHaveCount(1);
    await expect(bubble(page, `newer message 0 ${t}`)).toHaveCount(1);
    await expect(bubble(page, `newer message 149 ${t}`)).toHaveCount(0);
    await expect(page.getByTestId('chat-jump-latest')).toBeVisible();
    expect(anchors).toEqual(['around_id']);

    // Scrolling up loads older pages back to the chat's first message.
    const list = page.getByTestId('message-list');
    await scrollUntil(page, list, bubble(page, `Hello, this is the start ${t}`), -600);
    expect(anchors.filter((a) => a === 'before_id').length).toBeGreaterThanOrEqual(2);

    // Scrolling down loads newer pages up to the newest message.
    await scrollUntil(page, list, bubble(page, `newer message 149 ${t}`), 800);
    expect(anchors.filter((a) => a === 'after_id').length).toBeGreaterThanOrEqual(3);
    expect(anchors).not.toContain('newest');
    await expect(page.getByTestId('chat-jump-latest')).toHaveCount(0);

    // At the newest message the chat behaves as usual: sending, and new customer messages.
    const reply = `reply after the search ${t}`;
    await page.getByTestId('composer-input').fill(reply);
    await page.getByTestId('composer-input').press('Enter');
    await expect(bubble(page, reply)).toHaveAttribute('data-status', 'sent');
    await expect(bubble(page, reply)).toBeInViewport();
    const incoming = `customer writes again ${t}`;
    await parley.cli('chat:receive', freshSeat.phone, alice, incoming);
    await expect(bubble(page, incoming)).toHaveAttribute('data-direction', 'in', {
      timeout: 30_000,
    });
    await expect(bubble(page, reply)).toHaveCount(1);
  });

  test('results load more on scroll, and a hit in another group opens that group', async ({
    page,
    parley,
    baseURL,
    freshSeat,
  }) => {
    const t = tag();
    const word = `marker-${t}`;
    const carol = customerPhone();
    const { token } = await apiLogin(baseURL!, freshSeat.account, freshSeat.password);
    await parley.cli('chat:receive', freshSeat.phone, carol, `first ${word} from carol`);
    await sendMany(
      baseURL!,
      token,
      freshSeat,
      carol,
      Array.from({ length: 44 }, (_, i) => `reply ${i} with ${word}`),
    );
    const group = await call(
      baseURL!,
      '/v1/seat/chat/doGroup',
      { type: 'add', group_name: `VIP ${t}` },
      token,
    );
    const sessions = await call(
      baseURL!,
      '/v1/seat/chat/addressBook',
      { keyword: carol.slice(-8) },
      token,
    );
    const chat = sessions.list[0]!;
    await call(
      baseURL!,
      '/v1/seat/chat/moveSessionGroup',
      { session_id: chat.session_id, group_id: group.group.group_id },
      token,
    );

    await signIn(page, freshSeat.account, freshSeat.password);
    const cursors: (string | undefined)[] = [];
    page.on('request', (req) => {
      if (!req.url().endsWith('/v1/seat/chat/searchMessage')) return;
      cursors.push((JSON.parse(req.postData() ?? '{}') as { cursor?: string }).cursor);
    });
    await openSearch(page, word.toUpperCase());
    const results = page.getByTestId('message-search-results');
    await expect(results.getByTestId('message-search-hit').first()).toContainText(
      `reply 43 with ${word}`,
    );
    // 45 hits, 30 per page: the oldest comes with the second page, on scroll.
    const oldest = results
      .getByTestId('message-search-hit')
      .filter({ hasText: `first ${word} from carol` });
    await expect(oldest).toHaveCount(0);
    await scrollUntil(page, results, oldest, 600);
    expect(cursors).toHaveLength(2);
    expect(cursors[0]).toBeUndefined();
    expect(cursors[1]).toEqual(expect.any(String));

    await oldest.click();
    await expect(groupItem(page, group.group.group_id)).toHaveAttribute('data-active', 'true');
    await expect(userItem(page, chat.session_id)).toHaveAttribute('data-active', 'true');
    const highlighted = page.locator('[data-highlighted="true"] [data-testid="message-text"]');
    await expect(highlighted).toHaveText(`first ${word} from carol`);
    await expect(highlighted).toBeInViewport();
  });
});
