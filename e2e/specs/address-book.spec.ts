import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { apiLogin, call } from '../support/api';
import { test, expect } from '../support/fixtures';
import { groupItem, signIn, userItem } from '../support/app';

/** Customer numbers with a common random stem, so their order is known. */
function numbers() {
  const stem = String(randomBytes(4).readUInt32BE() % 1e7).padStart(7, '0');
  return (tail: string) => `+7${stem}${tail}`;
}

function entry(page: Page, phone: string): Locator {
  return page.locator(`[data-testid="address-book-item"][data-receiver-phone="${phone}"]`);
}

async function bookPhones(page: Page): Promise<string[]> {
  return page
    .getByTestId('address-book-item')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-receiver-phone') ?? ''));
}

test.describe('address book', () => {
  test('lists the seat’s customers across accounts by number, with block state; searches by number and remark; edits a remark', async ({
    page,
    parley,
    baseURL,
    freshSeat,
    createSeat,
  }) => {
    const num = numbers();
    const other = await createSeat();
    // A second account of the same seat, and a customer of another seat.
    const line2 = `+1555${String(randomBytes(4).readUInt32BE() % 1e8).padStart(8, '0')}`;
    await parley.cli('account:add', line2);
    await parley.cli('account:assign', line2, freshSeat.account);
    await parley.cli('chat:receive', freshSeat.phone, num('300'), 'hello from 300');
    await parley.cli('chat:receive', line2, num('100'), 'hello from 100');
    await parley.cli('chat:receive', freshSeat.phone, num('200'), 'hello from 200');
    await parley.cli('chat:receive', other.phone, num('150'), 'not yours');
    const { token } = await apiLogin(baseURL!, freshSeat.account, freshSeat.password);
    const listed = await call(baseURL!, '/v1/seat/chat/addressBook', {}, token);
    const blockedId = listed.list.find((e) => e.receiver_phone === num('200'))!.session_id;
    await call(baseURL!, '/v1/seat/chat/block', { session_id: blockedId }, token);

    await signIn(page, freshSeat.account, freshSeat.password);
    await page.getByRole('tab', { name: 'Address book' }).click();
    await expect(page).toHaveURL(/\/home\/addressBook$/);
    await expect(page.getByTestId('address-book-total')).toHaveText('3 contacts');
    await expect.poll(() => bookPhones(page)).toEqual([num('100'), num('200'), num('300')]);
    await expect(entry(page, num('150'))).toHaveCount(0);
    await expect(entry(page, num('100'))).toContainText(line2);
    await expect(entry(page, num('300'))).toContainText(freshSeat.phone);
    await expect(entry(page, num('200'))).toHaveAttribute('data-blocked', 'true');
    await expect(entry(page, num('200')).getByTestId('address-book-blocked')).toHaveText('Blocked');
    await expect(entry(page, num('100')).getByTestId('address-book-blocked')).toHaveCount(0);

    // Search by number.
    const search = page.getByTestId('address-book-search');
    await search.fill(num('30').slice(-4));
    await expect.poll(() => bookPhones(page)).toEqual([num('300')]);
    await expect(page.getByTestId('address-book-total')).toHaveText('1 contact');
    await search.fill('');
    await expect.poll(() => bookPhones(page)).toHaveLength(3);

    // Edit a remark; it shows at once and is found by the search, in any case.
    const remark = `Maria Silva ${randomBytes(2).toString('hex')}`;
    await entry(page, num('100')).getByTestId('address-book-edit-remark').click();
    await page.getByTestId('address-book-remark-input').fill(remark);
    await page.getByTestId('address-book-remark-save').click();
    await expect(page.getByTestId('address-book-remark-input')).toHaveCount(0);
    await expect(entry(page, num('100')).getByTestId('address-book-remark')).toHaveText(remark);
    await search.fill(remark.toUpperCase());
    await expect.poll(() => bookPhones(page)).toEqual([num('100')]);
    await search.fill('no-such-customer');
    await expect(page.getByTestId('address-book-empty')).toBeVisible();
    await expect(page.getByTestId('address-book-total')).toHaveText('0 contacts');

    // Saved on the server: after a reload the remark is still there.
    await page.reload();
    await expect(entry(page, num('100')).getByTestId('address-book-remark')).toHaveText(remark);
  });

  test('“open chat” goes to the chat console with the chat selected in its group', async ({
    page,
    parley,
    baseURL,
    freshSeat,
  }) => {
    const num = numbers();
    await parley.cli('chat:receive', freshSeat.phone, num('001'), 'first customer');
    await parley.cli('chat:receive', freshSeat.phone, num('002'), 'second customer says hi');
    const { token } = await apiLogin(baseURL!, freshSeat.account, freshSeat.password);
    const vip = await call(
      baseURL!,
      '/v1/seat/chat/doGroup',
      { type: 'add', group_name: `VIP ${randomBytes(2).toString('hex')}` },
      token,
    );
    const book = await call(baseURL!, '/v1/seat/chat/addressBook', {}, token);
    const second = book.list.find((e) => e.receiver_phone === num('002'))!;
    await call(
      baseURL!,
      '/v1/seat/chat/moveSessionGroup',
      { session_id: second.session_id, group_id: vip.group.group_id },
      token,
    );

    await signIn(page, freshSeat.account, freshSeat.password);
    // The console starts in Ungrouped; the chat lives in the custom group.
    await expect(
      page.locator('[data-testid="group-item"][data-group-type="ungrouped"]'),
    ).toHaveAttribute('data-active', 'true');
    await page.getByRole('tab', { name: 'Address book' }).click();
    await expect(entry(page, num('002'))).toContainText(vip.group.group_name);
    await entry(page, num('002')).getByTestId('address-book-open-chat').click();

    await expect(page).toHaveURL(new RegExp(`/home/chat\\?chat=${second.session_id}$`));
    await expect(groupItem(page, vip.group.group_id)).toHaveAttribute('data-active', 'true');
    await expect(userItem(page, second.session_id)).toHaveAttribute('data-active', 'true');
    await expect(page.getByTestId('chat-title')).toHaveText(num('002'));
    await expect(
      page.getByTestId('message-text').getByText('second customer says hi', { exact: true }),
    ).toBeVisible();
  });
});
