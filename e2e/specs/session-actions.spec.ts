import { REMARK_MAX } from '@parley/protocol';
import { call } from '../support/api';
import { test, expect } from '../support/fixtures';
import {
  expectBadge,
  fieldError,
  groupItem,
  signIn,
  switchLanguage,
  userItem,
} from '../support/app';
import {
  builtInGroup,
  createGroup,
  findSession,
  listedIds,
  openChat,
  receiveChat,
  rowMenu,
  seatToken,
  selectGroupRow,
} from '../support/chats';
import { tr } from '../support/locales';

test.describe('chat actions', () => {
  test('pin moves a chat to the top with the pin mark; unpin puts it back in time order', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const oldest = await receiveChat(parley, freshSeat, ['first customer']);
    const middle = await receiveChat(parley, freshSeat, ['second customer']);
    const newest = await receiveChat(parley, freshSeat, ['third customer']);
    await signIn(page, freshSeat.account, freshSeat.password);
    await expect(builtInGroup(page, 'ungrouped')).toHaveAttribute('data-active', 'true');
    const timeOrder = [newest.session_id, middle.session_id, oldest.session_id];
    await expect.poll(() => listedIds(page)).toEqual(timeOrder);
    await expect(page.getByTestId('user-pinned')).toHaveCount(0);

    const menu = await rowMenu(page, oldest.session_id);
    await expect(menu.getByTestId('session-action-unpin')).toHaveCount(0);
    await menu.getByTestId('session-action-pin').click();
    await expect(menu).toBeHidden();
    await expect
      .poll(() => listedIds(page))
      .toEqual([oldest.session_id, newest.session_id, middle.session_id]);
    await expect(userItem(page, oldest.session_id).getByTestId('user-pinned')).toBeVisible();
    await expect(page.getByTestId('user-pinned')).toHaveCount(1);

    // Survives a reload (it is the server's order).
    await page.reload();
    await expect
      .poll(() => listedIds(page))
      .toEqual([oldest.session_id, newest.session_id, middle.session_id]);

    const again = await rowMenu(page, oldest.session_id);
    await expect(again.getByTestId('session-action-pin')).toHaveCount(0);
    await again.getByTestId('session-action-unpin').click();
    await expect.poll(() => listedIds(page)).toEqual(timeOrder);
    await expect(page.getByTestId('user-pinned')).toHaveCount(0);
  });

  test('block moves the open chat to the disabled Blocked group; unblock brings it back to Ungrouped', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const chat = await receiveChat(parley, freshSeat, ['please stop']);
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);
    await expect(page.getByTestId('composer-input')).toBeEnabled();
    await expect(builtInGroup(page, 'blocked')).toHaveAttribute('data-disabled', 'true');

    await (await rowMenu(page, chat.session_id)).getByTestId('session-action-block').click();
    // The console follows the open chat into Blocked: listed there, still open, not writable.
    await expect(builtInGroup(page, 'blocked')).toHaveAttribute('data-active', 'true');
    await expect(userItem(page, chat.session_id)).toHaveAttribute('data-active', 'true');
    await expect(page.getByTestId('composer-input')).toBeDisabled();
    await expect(page.getByTestId('composer-send')).toBeDisabled();
    await expect(page.getByTestId('chat-blocked')).toBeVisible();

    // The server agrees: after a reload it is in Blocked, not in Ungrouped.
    await page.reload();
    await selectGroupRow(
      page,
      Number(await builtInGroup(page, 'ungrouped').getAttribute('data-group-id')),
    );
    await expect(page.getByTestId('user-item')).toHaveCount(0);
    await builtInGroup(page, 'blocked').click();
    await openChat(page, chat.session_id);
    await expect(page.getByTestId('composer-input')).toBeDisabled();

    // Unblock from the chat header's menu (the keyboard path).
    await page.getByTestId('chat-actions').click();
    const headerMenu = page.getByTestId('chat-actions-menu');
    await expect(headerMenu.getByTestId('session-action-block')).toHaveCount(0);
    await expect(headerMenu.getByTestId('session-action-move')).toHaveCount(0);
    await headerMenu.getByTestId('session-action-unblock').click();
    await expect(builtInGroup(page, 'ungrouped')).toHaveAttribute('data-active', 'true');
    await expect(userItem(page, chat.session_id)).toHaveAttribute('data-active', 'true');
    await expect(page.getByTestId('composer-input')).toBeEnabled();
    await expect(page.getByTestId('chat-blocked')).toHaveCount(0);
    await builtInGroup(page, 'blocked').click();
    await expect(page.getByTestId('user-item')).toHaveCount(0);
  });

  test('remark: at most 100 characters; shown in the list and the card, kept after a reload', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const chat = await receiveChat(parley, freshSeat, ['hi there']);
    await signIn(page, freshSeat.account, freshSeat.password);
    await (await rowMenu(page, chat.session_id)).getByTestId('session-action-remark').click();
    const input = page.getByTestId('remark-input');
    await input.fill('x'.repeat(REMARK_MAX + 1));
    await page.getByTestId('remark-save').click();
    await expect(await fieldError(input)).toHaveText(
      `A remark can have at most ${REMARK_MAX} characters`,
    );
    await input.fill('VIP Anna');
    await page.getByTestId('remark-save').click();
    await expect(page.getByTestId('remark-dialog')).toHaveCount(0);
    await expect(userItem(page, chat.session_id)).toContainText('VIP Anna');

    await openChat(page, chat.session_id);
    await page.getByTestId('chat-title').click();
    await expect(page.getByTestId('profile-remark-input')).toHaveValue('VIP Anna');
    await page.keyboard.press('Escape');

    await page.reload();
    await expect(userItem(page, chat.session_id)).toContainText('VIP Anna');
  });

  test('move: a group must be chosen and differ from the current one; then the chat moves', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const chat = await receiveChat(parley, freshSeat, ['move me']);
    const token = await seatToken(parley.url, freshSeat);
    const vip = await createGroup(parley.url, token, 'VIP');
    await signIn(page, freshSeat.account, freshSeat.password);

    await (await rowMenu(page, chat.session_id)).getByTestId('session-action-move').click();
    const select = page.getByTestId('move-group-select');
    await page.getByTestId('move-save').click();
    await expect(await fieldError(select)).toHaveText('Please select a group');

    await select.click();
    // Blocked is reached by blocking, not by moving.
    await expect(page.getByRole('option', { name: 'Blocked', exact: true })).toHaveCount(0);
    await page.getByRole('option', { name: 'Ungrouped (current)' }).click();
    await page.getByTestId('move-save').click();
    await expect(await fieldError(select)).toHaveText(
      'The chat is already in this group; choose another one',
    );

    await select.click();
    await page.getByRole('option', { name: 'VIP', exact: true }).click();
    await page.getByTestId('move-save').click();
    await expect(page.getByTestId('move-dialog')).toHaveCount(0);
    await expect(userItem(page, chat.session_id)).toHaveCount(0);
    await selectGroupRow(page, vip.group_id);
    await expect(userItem(page, chat.session_id)).toBeVisible();
    const moved = await findSession(parley.url, token, chat.receiver_phone);
    expect(moved.group_id).toBe(vip.group_id);
  });

  test('delete chat: cancel keeps it, confirm removes it for good', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const chat = await receiveChat(parley, freshSeat, ['delete me']);
    const other = await receiveChat(parley, freshSeat, ['keep me']);
    await signIn(page, freshSeat.account, freshSeat.password);
    await openChat(page, chat.session_id);

    await (await rowMenu(page, chat.session_id)).getByTestId('session-action-delete').click();
    const confirm = page.getByTestId('delete-chat-confirm');
    await expect(confirm).toContainText(chat.receiver_phone);
    await confirm.getByTestId('confirm-cancel').click();
    await expect(confirm).toHaveCount(0);
    await expect(userItem(page, chat.session_id)).toBeVisible();
    await expect(page.getByTestId('chat-title')).toHaveText(chat.receiver_phone);

    await (await rowMenu(page, chat.session_id)).getByTestId('session-action-delete').click();
    await page.getByTestId('delete-chat-confirm').getByTestId('confirm-ok').click();
    await expect(userItem(page, chat.session_id)).toHaveCount(0);
    await expect(page.getByTestId('empty-chat')).toBeVisible();
    await expect(userItem(page, other.session_id)).toBeVisible();

    await page.reload();
    await expect(userItem(page, other.session_id)).toBeVisible();
    await expect(userItem(page, chat.session_id)).toHaveCount(0);
  });

  test('one-click read: for the open group, then for all; the counts drop to zero', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const a = await receiveChat(parley, freshSeat, ['a1', 'a2']);
    await receiveChat(parley, freshSeat, ['b1']);
    const c = await receiveChat(parley, freshSeat, ['c1', 'c2', 'c3']);
    const token = await seatToken(parley.url, freshSeat);
    const vip = await createGroup(parley.url, token, 'VIP');
    await call(
      parley.url,
      '/v1/seat/chat/moveSessionGroup',
      { session_id: c.session_id, group_id: vip.group_id },
      token,
    );
    await signIn(page, freshSeat.account, freshSeat.password);
    const ungrouped = builtInGroup(page, 'ungrouped');
    await expectBadge(page.getByTestId('total-unread'), 6);
    await expectBadge(ungrouped.getByTestId('group-unread'), 3);
    await expectBadge(groupItem(page, vip.group_id).getByTestId('group-unread'), 3);
    await expectBadge(userItem(page, a.session_id).getByTestId('user-unread'), 2);

    await page.getByTestId('group-read').click();
    await page.getByTestId('group-read-confirm').getByTestId('confirm-ok').click();
    await expectBadge(ungrouped.getByTestId('group-unread'), 0);
    await expectBadge(page.getByTestId('user-unread'), 0);
    await expectBadge(page.getByTestId('total-unread'), 3);
    await expectBadge(groupItem(page, vip.group_id).getByTestId('group-unread'), 3);
    await expect(page.getByTestId('group-read')).toHaveCount(0);

    await page.getByTestId('read-all').click();
    await page.getByTestId('read-all-confirm').getByTestId('confirm-ok').click();
    await expectBadge(page.getByTestId('total-unread'), 0);
    await expectBadge(groupItem(page, vip.group_id).getByTestId('group-unread'), 0);
    await expectBadge(page.getByTestId('time-tab-1-unread'), 0);
    await expect(page.getByTestId('read-all')).toHaveCount(0);

    await page.reload();
    await expect(ungrouped).toBeVisible();
    await expectBadge(page.getByTestId('total-unread'), 0);
    await expectBadge(page.getByTestId('group-unread'), 0);
    await selectGroupRow(page, vip.group_id);
    await expect(userItem(page, c.session_id)).toBeVisible();
    await expectBadge(userItem(page, c.session_id).getByTestId('user-unread'), 0);
  });

  test('the context menu speaks the UI language (Russian)', async ({ page, parley, freshSeat }) => {
    const chat = await receiveChat(parley, freshSeat, ['привет']);
    await signIn(page, freshSeat.account, freshSeat.password);
    await switchLanguage(page, 'ru');
    const menu = await rowMenu(page, chat.session_id);
    const expected: [string, string][] = [
      ['session-action-profile', 'Customer profile'],
      ['session-action-pin', 'Pin to top'],
      ['session-action-remark', 'Set remark…'],
      ['session-action-move', 'Move to group…'],
      ['session-action-block', 'Block'],
      ['session-action-delete', 'Delete chat…'],
    ];
    for (const [id, english] of expected) {
      const russian = tr('ru', english, 'session-actions');
      expect(russian).not.toBe(english);
      await expect(menu.getByTestId(id)).toHaveText(russian);
    }
    await menu.getByTestId('session-action-move').click();
    await page.getByTestId('move-save').click();
    await expect(await fieldError(page.getByTestId('move-group-select'))).toHaveText(
      tr('ru', 'Please select a group', 'session-actions'),
    );
  });
});
