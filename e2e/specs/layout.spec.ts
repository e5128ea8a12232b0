import { randomBytes } from 'node:crypto';
import { REMARK_MAX } from '@parley/protocol';
import { call } from '../support/api';
import { test, expect } from '../support/fixtures';
import { groupItem, signIn, switchLanguage } from '../support/app';
import { createGroup, openChat, receiveChat, seatToken } from '../support/chats';
import { overflowingElements } from '../support/layout';
import { createLongestLabel } from '../support/admin';
import { tr, UI_LANGS } from '../support/locales';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

/** The longest customer number the protocol allows: + and 20 digits. */
function longestNumber(): string {
  return `+8${[...randomBytes(19)].map((b) => String(b % 10)).join('')}`;
}

test.describe('the console fits its columns in every language', () => {
  test('no header, row or button of /home/chat and /home/addressBook scrolls sideways or is cut, at 1280x800 and 1440x900', async ({
    page,
    parley,
    freshSeat,
  }) => {
    test.setTimeout(180_000);
    // The widest state: unread chats (the header's total and read-all, the list's group read),
    // a pinned chat, the longest number, the longest remark, a long custom group name.
    const longest = await receiveChat(parley, freshSeat, ['Hello, I have a question'], {
      customer: longestNumber(),
    });
    await receiveChat(parley, freshSeat, ['Second customer, waiting for a reply']);
    const token = await seatToken(parley.url, freshSeat);
    const remark = 'Prefers calls in the afternoon, asked about the delivery of order 4417 twice '
      .repeat(2)
      .slice(0, REMARK_MAX);
    await call(
      parley.url,
      '/v1/seat/chat/set_remark',
      { session_id: longest.session_id, remark },
      token,
    );
    await call(
      parley.url,
      '/v1/seat/chat/sessionDoTop',
      { session_id: longest.session_id, is_top: true },
      token,
    );
    // A label defined: the list's label filter is shown, with "Todas as etiquetas" in it.
    await createLongestLabel(parley.url);
    const group = await createGroup(
      parley.url,
      token,
      'Wholesale customers from the northern region, 2026',
    );

    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, longest.session_id);
    await expect(page.getByTestId('user-pinned')).toBeVisible();
    await expect(page.getByTestId('total-unread')).toBeVisible();
    await expect(groupItem(page, group.group_id)).toBeVisible();
    await expect(page.getByTestId('label-filter')).toBeVisible();

    for (const lang of UI_LANGS) {
      await switchLanguage(page, lang);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.goto('/home/chat');
        await openChat(page, longest.session_id);
        await expect(page.getByTestId('chat-title')).toHaveText(longest.receiver_phone);
        await expect(page.getByTestId('group-read')).toBeVisible();
        await expect(page.getByTestId('add-chat-open')).toBeVisible();
        expect
          .soft(await overflowingElements(page), `/home/chat in ${lang} at ${viewport.width}`)
          .toEqual([]);

        // Mounted at this size and in this language like a page load, without one.
        await page.getByRole('tab', { name: tr(lang, 'Address book', 'common') }).click();
        await expect(page).toHaveURL(/\/home\/addressBook$/);
        await expect(page.getByTestId('address-book-item')).toHaveCount(2);
        expect
          .soft(
            await overflowingElements(page),
            `/home/addressBook in ${lang} at ${viewport.width}`,
          )
          .toEqual([]);
      }
    }
  });
});
