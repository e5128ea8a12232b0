import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { BUILT_IN_GROUP_NAMES, GROUP_LIST_POLL_MS, GROUP_NAME_MAX } from '@parley/protocol';
import { apiLogin, call } from '../support/api';
import { test, expect, DEMO } from '../support/fixtures';
import { expectBadge, fieldError, groupItem, revealUserItem, signIn } from '../support/app';
import { jumpToPoll } from '../support/clock';
import { demoToken, groupList, sessionsOf } from '../support/demo';

function groupRow(page: Page, name: string): Locator {
  return page
    .getByTestId('group-item')
    .filter({ has: page.getByTestId('group-name').getByText(name, { exact: true }) });
}

function customGroups(page: Page): Locator {
  return page.locator('[data-testid="group-item"][data-group-type="custom"]');
}

async function openGroupMenu(row: Locator): Promise<void> {
  await row.hover();
  await row.getByTestId('group-menu').click();
}

async function createGroup(page: Page, name: string): Promise<void> {
  await page.getByTestId('group-create').click();
  await page.getByTestId('group-name-input').fill(name);
  await page.getByTestId('group-save').click();
  await expect(page.getByTestId('group-name-input')).toHaveCount(0);
  await expect(groupRow(page, name)).toHaveCount(1);
}

function uniqueName(prefix: string): string {
  return `${prefix} ${randomBytes(3).toString('hex')}`;
}

test.describe('groups', () => {
  test.beforeEach(async ({ page, freshSeat }) => {
    await signIn(page, freshSeat.account, freshSeat.password);
  });

  test('a new seat has the three built-in groups, without a rename/delete menu', async ({
    page,
  }) => {
    const expected = [
      ['ungrouped', BUILT_IN_GROUP_NAMES.ungrouped],
      ['blocked', BUILT_IN_GROUP_NAMES.blocked],
      ['tg_link_pushed', BUILT_IN_GROUP_NAMES.tg_link_pushed],
    ] as const;
    await expect(page.getByTestId('group-item')).toHaveCount(expected.length);
    for (const [type, name] of expected) {
      const row = page.locator(`[data-testid="group-item"][data-group-type="${type}"]`);
      await expect(row).toHaveCount(1);
      await expect(row.getByTestId('group-name')).toHaveText(name);
      await row.hover();
      await expect(row.getByTestId('group-menu')).toHaveCount(0);
    }
  });

  test('create: a name is required and at most 50 characters', async ({ page }) => {
    const input = page.getByTestId('group-name-input');
    const refused = async (name: string) => {
      await page.getByTestId('group-create').click();
      if (name !== '') await input.fill(name);
      await page.getByTestId('group-save').click();
      const error = await fieldError(input);
      await expect(error).toBeVisible();
      await expect(error).not.toHaveText('');
      await page.keyboard.press('Escape');
      await expect(input).toHaveCount(0);
    };
    await refused('');
    await refused('    ');
    await refused('x'.repeat(GROUP_NAME_MAX + 1));
    await expect(customGroups(page)).toHaveCount(0);

    // Exactly 50 characters is accepted.
    const longest = `${randomBytes(3).toString('hex')}${'y'.repeat(GROUP_NAME_MAX - 6)}`;
    expect(longest).toHaveLength(GROUP_NAME_MAX);
    await createGroup(page, longest);
    await expect(customGroups(page)).toHaveCount(1);
  });

  test('create: a valid group appears and is still there after a reload', async ({ page }) => {
    const name = uniqueName('VIP');
    await createGroup(page, name);
    await expect(groupRow(page, name)).toHaveAttribute('data-group-type', 'custom');
    await expectBadge(groupRow(page, name).getByTestId('group-unread'), 0);
    await page.reload();
    await expect(groupRow(page, name)).toHaveCount(1);
  });

  test('rename a custom group', async ({ page }) => {
    const name = uniqueName('Leads');
    const renamed = uniqueName('Hot leads');
    await createGroup(page, name);

    await openGroupMenu(groupRow(page, name));
    await page.getByTestId('group-rename').click();
    const input = page.getByTestId('group-name-input');
    await expect(input).toHaveValue(name);
    // The same rules as on create.
    await input.fill('');
    await page.getByTestId('group-save').click();
    await expect(await fieldError(input)).toBeVisible();
    await input.fill(renamed);
    await page.getByTestId('group-save').click();
    await expect(input).toHaveCount(0);
    await expect(groupRow(page, renamed)).toHaveCount(1);
    await expect(groupRow(page, name)).toHaveCount(0);

    await page.reload();
    await expect(groupRow(page, renamed)).toHaveCount(1);
    await expect(groupRow(page, name)).toHaveCount(0);
  });

  test('delete a custom group: cancel keeps it, confirm removes it', async ({ page }) => {
    const name = uniqueName('Old');
    await createGroup(page, name);

    await openGroupMenu(groupRow(page, name));
    await page.getByTestId('group-delete').click();
    await page.getByTestId('confirm-cancel').click();
    await expect(page.getByTestId('confirm-ok')).toHaveCount(0);
    await expect(groupRow(page, name)).toHaveCount(1);

    await openGroupMenu(groupRow(page, name));
    await page.getByTestId('group-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect(groupRow(page, name)).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('group-list')).toBeVisible();
    await expect(groupRow(page, name)).toHaveCount(0);
    await expect(customGroups(page)).toHaveCount(0);
  });
});

test.describe('groups changed elsewhere', () => {
  test('a selected group deleted in another session disappears on the next poll and clears the selection', async ({
    page,
    baseURL,
    freshSeat,
  }) => {
    await page.clock.install();
    await signIn(page, freshSeat.account, freshSeat.password);
    const name = uniqueName('Temp');
    await createGroup(page, name);
    await groupRow(page, name).click();
    await expect(groupRow(page, name)).toHaveAttribute('data-active', 'true');
    const groupId = Number(await groupRow(page, name).getAttribute('data-group-id'));

    // Another session of the same seat deletes it, and creates another group.
    const other = await apiLogin(baseURL!, freshSeat.account, freshSeat.password);
    await call(baseURL!, '/v1/seat/chat/doGroup', { type: 'del', group_id: groupId }, other.token);
    const added = uniqueName('Added elsewhere');
    await call(baseURL!, '/v1/seat/chat/doGroup', { type: 'add', group_name: added }, other.token);

    await jumpToPoll(page, '/v1/seat/chat/getGroupList', GROUP_LIST_POLL_MS + 1_000);
    await expect(groupRow(page, added)).toHaveCount(1);
    await expect(groupRow(page, name)).toHaveCount(0);
    await expect(page.locator('[data-testid="group-item"][data-active="true"]')).toHaveCount(0);
    await expect(page.getByTestId('user-item')).toHaveCount(0);
    await expect(page.getByTestId('empty-chat')).toBeVisible();
  });
});

test.describe('groups with chats (demo workspace)', () => {
  test('deleting a group moves its chats and unread messages to Ungrouped', async ({
    page,
    baseURL,
  }) => {
    const token = await demoToken(baseURL!);
    const before = await groupList(baseURL!, token);
    const ungrouped = before.group_list.find((g) => g.group_type === 'ungrouped');
    expect(ungrouped).toBeDefined();
    // A custom group with chats and unread messages (so both moves can be seen).
    let victim: (typeof before.group_list)[number] | undefined;
    let movedId: number | undefined;
    let movedTab: 1 | 2 = 1;
    for (const g of before.group_list) {
      if (g.group_type !== 'custom' || g.un_read === 0) continue;
      for (const tab of [1, 2] as const) {
        const [first] = await sessionsOf(baseURL!, token, g.group_id, tab);
        if (first) {
          victim = g;
          movedId = first.session_id;
          movedTab = tab;
          break;
        }
      }
      if (victim) break;
    }
    expect(victim, 'the demo workspace has a custom group with unread chats').toBeDefined();

    await signIn(page, DEMO.account, DEMO.password);
    const ungroupedRow = groupItem(page, ungrouped!.group_id);
    await expectBadge(ungroupedRow.getByTestId('group-unread'), ungrouped!.un_read);
    await expectBadge(
      groupItem(page, victim!.group_id).getByTestId('group-unread'),
      victim!.un_read,
    );

    await openGroupMenu(groupItem(page, victim!.group_id));
    await page.getByTestId('group-delete').click();
    await page.getByTestId('confirm-ok').click();

    await expect(groupItem(page, victim!.group_id)).toHaveCount(0);
    await expectBadge(
      ungroupedRow.getByTestId('group-unread'),
      ungrouped!.un_read + victim!.un_read,
    );
    await expectBadge(page.getByTestId('total-unread'), before.un_read_count);

    // One of its chats is now listed in Ungrouped.
    await ungroupedRow.click();
    await page.getByTestId(`time-tab-${movedTab}`).click();
    await revealUserItem(page, movedId!);
  });
});
