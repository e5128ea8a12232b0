import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { call } from '../support/api';
import { test, expect } from '../support/fixtures';
import { groupItem, signIn, switchLanguage, toast, userItem } from '../support/app';
import { bubbles, groupWith, openChatIn, seedChats } from '../support/seed-chats';
import { tr } from '../support/locales';
import { REPO_ROOT } from '../support/server';

function batchGroup(page: Page, groupId: number) {
  return page.locator(`[data-testid="batch-group"][data-group-id="${groupId}"]`);
}

function batchChat(page: Page, sessionId: number) {
  return page.locator(`[data-testid="batch-chat"][data-session-id="${sessionId}"]`);
}

async function openBatchDialog(page: Page) {
  await page.getByTestId('batch-open').click();
  await expect(page.getByTestId('batch-dialog')).toBeVisible();
}

/** Expands a group of the dialog and ticks one of its chats. */
async function chooseChat(page: Page, groupId: number, sessionId: number) {
  const row = batchGroup(page, groupId);
  const chat = batchChat(page, sessionId);
  if (!(await chat.isVisible())) await row.getByTestId('batch-group-toggle').click();
  await chat.getByTestId('batch-chat-check').check();
}

test.describe('batch reply', () => {
  test('chats chosen across groups and a whole group: progress, results, each chat once', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const { token, chats } = await seedChats(parley, freshSeat, 6);
    const [c1, c2, c3, c4, c5, c6] = chats;
    const vip = await groupWith(parley.url, token, 'VIP', [c1!, c2!]);
    const later = await groupWith(parley.url, token, 'Later', [c3!, c4!]);
    const ungrouped = c5!.group_id;
    const text = `Batch hello ${randomBytes(3).toString('hex')}`;

    await signIn(page, freshSeat.account, freshSeat.password);
    await openBatchDialog(page);
    // The disabled Blocked group is not offered.
    await expect(page.getByTestId('batch-group')).toHaveCount(4);
    await expect(page.getByTestId('batch-count')).toHaveAttribute('data-count', '0');

    // One chat of VIP, one of Ungrouped, and the whole Later group.
    await chooseChat(page, vip, c1!.session_id);
    await chooseChat(page, ungrouped, c5!.session_id);
    await expect(batchGroup(page, later).getByTestId('batch-group-count')).toHaveText('2 chats');
    await batchGroup(page, later).getByTestId('batch-group-check').check();
    await expect(page.getByTestId('batch-count')).toHaveText('4 chats chosen');

    await page.getByTestId('batch-text').fill(text);
    await page.getByTestId('batch-send').click();

    // Progress, then the result of every chat.
    await expect(page.getByTestId('batch-progress')).toBeVisible();
    await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-done', 'true');
    await expect(page.getByTestId('batch-summary')).toHaveText('Done: 4 sent, 0 failed, of 4');
    const results = page.getByTestId('batch-result');
    await expect(results).toHaveCount(4);
    for (const s of [c1!, c5!, c3!, c4!]) {
      const row = page.locator(`[data-testid="batch-result"][data-session-id="${s.session_id}"]`);
      await expect(row).toHaveAttribute('data-status', 'sent');
      await expect(row).toContainText(s.receiver_phone);
    }
    await page.getByTestId('batch-close').click();
    await expect(page.getByTestId('batch-dialog')).toHaveCount(0);

    // The user list shows the new last message, and each chat shows it once.
    await groupItem(page, later).click();
    await expect(userItem(page, c3!.session_id)).toContainText(text);
    for (const [groupId, s] of [
      [vip, c1!],
      [ungrouped, c5!],
      [later, c3!],
      [later, c4!],
    ] as const) {
      await openChatIn(page, groupId, s.session_id);
      await expect(bubbles(page, text)).toHaveCount(1);
      await expect(bubbles(page, text)).toHaveAttribute('data-direction', 'out');
    }
    // The chats not chosen got nothing.
    for (const [groupId, s] of [
      [vip, c2!],
      [ungrouped, c6!],
    ] as const) {
      await openChatIn(page, groupId, s.session_id);
      await expect(page.getByTestId('message-item').first()).toBeVisible();
      await expect(bubbles(page, text)).toHaveCount(0);
    }
  });

  test('an empty target shows the message and sends nothing', async ({
    page,
    parley,
    freshSeat,
  }) => {
    await seedChats(parley, freshSeat, 1);
    await signIn(page, freshSeat.account, freshSeat.password);
    await openBatchDialog(page);
    await page.getByTestId('batch-text').fill('Nobody gets this');
    await page.getByTestId('batch-send').click();
    await expect(page.getByTestId('batch-empty-target')).toHaveText(
      'Choose at least one chat or group to send to.',
    );
    await expect(page.getByTestId('batch-progress')).toHaveCount(0);

    // In another UI language, the message is translated.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('batch-dialog')).toHaveCount(0);
    await switchLanguage(page, 'pt');
    await openBatchDialog(page);
    await page.getByTestId('batch-send').click();
    await expect(page.getByTestId('batch-empty-target')).toHaveText(
      tr('pt', 'Choose at least one chat or group to send to.', 'batch'),
    );
  });

  test('a double click, or a retry after a lost answer, sends the batch once', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const { token, chats } = await seedChats(parley, freshSeat, 2);
    const [a, b] = chats;
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/v1/seat/chat/batch_message')) requests.push(r.postData() ?? '');
    });
    await signIn(page, freshSeat.account, freshSeat.password);

    // A double click makes one request.
    await openBatchDialog(page);
    await chooseChat(page, a!.group_id, a!.session_id);
    await page.getByTestId('batch-text').fill('Double click');
    await page.getByTestId('batch-send').dblclick();
    await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-done', 'true');
    expect(requests).toHaveLength(1);

    // The answer is lost on the way back: the operator clicks again; the same batch_id is
    // answered with the batch the server already has.
    await page.getByTestId('batch-new').click();
    await chooseChat(page, b!.group_id, b!.session_id);
    await page.getByTestId('batch-text').fill('Lost answer');
    await page.route(
      '**/v1/seat/chat/batch_message',
      async (route) => {
        await route.fetch();
        await route.abort('connectionreset');
      },
      { times: 1 },
    );
    await page.getByTestId('batch-send').click();
    await expect(toast(page, 'Server busy')).toBeVisible();
    await expect(page.getByTestId('batch-send')).toBeEnabled();
    await page.getByTestId('batch-send').click();
    await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-done', 'true');
    await expect(page.getByTestId('batch-summary')).toHaveText('Done: 1 sent, 0 failed, of 1');
    expect(requests).toHaveLength(3);
    const ids = requests.map((r) => (JSON.parse(r) as { batch_id: string }).batch_id);
    expect(ids[1]).toBe(ids[2]);
    expect(ids[0]).not.toBe(ids[1]);
    await page.getByTestId('batch-close').click();

    for (const [s, text] of [
      [a!, 'Double click'],
      [b!, 'Lost answer'],
    ] as const) {
      await openChatIn(page, s.group_id, s.session_id);
      await expect(bubbles(page, text)).toHaveCount(1);
      const record = await call(
        parley.url,
        '/v1/seat/chat/getChatRecord',
        { send_phone: s.send_phone, receiver_phone: s.receiver_phone },
        token,
      );
      expect(record.list.filter((m) => m.content === text)).toHaveLength(1);
    }
  });

  test('a blocked chat fails with its translated reason; the others are sent', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const { token, chats } = await seedChats(parley, freshSeat, 2);
    const [ok, blocked] = chats;
    await signIn(page, freshSeat.account, freshSeat.password);
    await openBatchDialog(page);
    await chooseChat(page, ok!.group_id, ok!.session_id);
    await chooseChat(page, blocked!.group_id, blocked!.session_id);
    await page.getByTestId('batch-text').fill('Blocked meanwhile');
    // The customer is blocked (in another session) before the batch is sent.
    await call(parley.url, '/v1/seat/chat/block', { session_id: blocked!.session_id }, token);
    await page.getByTestId('batch-send').click();
    await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-done', 'true');
    await expect(page.getByTestId('batch-summary')).toHaveText('Done: 1 sent, 1 failed, of 2');
    const row = page.locator(
      `[data-testid="batch-result"][data-session-id="${blocked!.session_id}"]`,
    );
    await expect(row).toHaveAttribute('data-status', 'failed');
    await expect(row.getByTestId('batch-result-reason')).toHaveText('Failed to get permissions');
  });

  test('a file attached to a batch reaches every chosen chat as a media message', async ({
    page,
    parley,
    freshSeat,
  }) => {
    const { token, chats } = await seedChats(parley, freshSeat, 2);
    await signIn(page, freshSeat.account, freshSeat.password);
    await openBatchDialog(page);
    await batchGroup(page, chats[0]!.group_id).getByTestId('batch-group-check').check();
    await page.getByTestId('batch-mode').getByText('File', { exact: true }).click();
    await page.getByTestId('batch-send').click();
    await expect(page.getByText('Please choose a file to send')).toBeVisible();
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('batch-file').click();
    await (await chooser).setFiles(path.join(REPO_ROOT, 'e2e/fixtures/media/photo.png'));
    await expect(page.getByTestId('batch-file-name')).toHaveText('photo.png');
    await page.getByTestId('batch-text').fill('This week only');
    await page.getByTestId('batch-send').click();
    await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-done', 'true');
    await expect(page.getByTestId('batch-summary')).toHaveText('Done: 2 sent, 0 failed, of 2');

    for (const s of chats) {
      const record = await call(
        parley.url,
        '/v1/seat/chat/getChatRecord',
        { send_phone: s.send_phone, receiver_phone: s.receiver_phone },
        token,
      );
      const sent = record.list.filter((m) => m.direction === 'out');
      expect(sent.map((m) => [m.type, m.content, m.media?.file_name])).toEqual([
        ['image', 'This week only', 'photo.png'],
      ]);
    }
  });
});
