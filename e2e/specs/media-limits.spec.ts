import { truncateSync, writeFileSync } from 'node:fs';
import { MEDIA_MAX_BYTES_DEFAULT } from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import { toast } from '../support/app';
import { chatRecord, openFreshChat } from '../support/chat';

/** Uploads that never become a message: too large, or cancelled midway. */
test('a file above the size limit is refused at once, with nothing uploaded or sent', async ({
  page,
  parley,
  freshSeat,
}, testInfo) => {
  // A sparse file on disk: the browser reads it from there (no 10 MB copy through the driver).
  const huge = testInfo.outputPath('huge-photo.png');
  writeFileSync(huge, '');
  truncateSync(huge, MEDIA_MAX_BYTES_DEFAULT.image + 1);
  const { token, session } = await openFreshChat(page, parley, freshSeat);
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/v1/seat/chat/upload')) uploads.push(r.url());
  });

  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('composer-attach').click();
  await (await chooser).setFiles(huge);

  await expect(
    toast(page, '“huge-photo.png” cannot be sent: the limit for this kind (Image) is 10 MB.'),
  ).toBeVisible();
  await expect(page.locator('[data-testid="message-item"][data-type="image"]')).toHaveCount(0);
  expect(uploads).toEqual([]);
  expect((await chatRecord(parley.url, token, session)).map((m) => m.type)).toEqual(['text']);
});

test('an upload cancelled midway leaves no message', async ({ page, parley, freshSeat }) => {
  const { token, session } = await openFreshChat(page, parley, freshSeat);
  const sends: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/v1/seat/chat/message')) sends.push(r.url());
  });
  // The upload is held on its way (a slow link) until the test lets it go.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let uploadSeen!: () => void;
  const seen = new Promise<void>((resolve) => (uploadSeen = resolve));
  await page.route('**/v1/seat/chat/upload', async (route) => {
    uploadSeen();
    await released;
    await route.continue().catch(() => undefined);
  });

  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('composer-attach').click();
  await (
    await chooser
  ).setFiles({
    name: 'report.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(256 * 1024, 7),
  });

  const pending = page.locator('[data-testid="message-item"][data-type="file"]');
  await expect(pending).toHaveCount(1);
  await expect(pending).toHaveAttribute('data-status', 'pending');
  await expect(pending.getByTestId('upload')).toHaveAttribute('data-upload-state', 'uploading');
  await expect(pending.getByTestId('upload-progress')).toBeVisible();
  await seen;

  await pending.getByTestId('upload-cancel').click();
  await expect(pending).toHaveCount(0);
  release();

  expect(sends).toEqual([]);
  expect((await chatRecord(parley.url, token, session)).map((m) => m.type)).toEqual(['text']);
  await page.reload();
  await expect(page.getByTestId('group-list')).toBeVisible();
  await page.getByTestId('time-tab-1').click();
  await page.locator(`[data-testid="user-item"][data-session-id="${session.session_id}"]`).click();
  await expect(page.getByTestId('message-item')).toHaveCount(1);
  await expect(page.locator('[data-testid="message-item"][data-type="file"]')).toHaveCount(0);
});
