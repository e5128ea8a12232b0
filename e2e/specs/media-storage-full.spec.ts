import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { restartableTest, expect } from '../support/fixtures';
import { REPO_ROOT, startServer } from '../support/server';
import { openFreshChat } from '../support/chat';
import { switchLanguage } from '../support/app';

/**
 * Issue 23: the server's media disk full. The upload is refused with 507001 and the console
 * says why, in the operator's language, instead of "Service error". The media directory is a
 * small tmpfs (the suite runs as root in CI; without mount this fails rather than skips).
 */
const test = restartableTest.extend<{ mediaDir: string }>({
  // eslint-disable-next-line no-empty-pattern
  mediaDir: async ({}, use) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parley-e2e-media-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir]);
    try {
      await use(dir);
    } finally {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  },
  server: async ({ mediaDir }, use) => {
    const server = await startServer({ PARLEY_MEDIA_DIR: mediaDir });
    try {
      await use(server);
    } finally {
      await server.stop();
    }
  },
});

test('a full media disk: the failed upload says so, translated', async ({
  page,
  server,
  freshSeat,
  mediaDir,
}) => {
  await openFreshChat(page, server, freshSeat);
  // Whatever the demo stored, the disk is now full.
  try {
    writeFileSync(path.join(mediaDir, 'filler'), Buffer.alloc(4 * 1024 * 1024));
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOSPC') throw err;
  }
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('composer-attach').click();
  await (await chooser).setFiles(path.join(REPO_ROOT, 'e2e/fixtures/media/doc.pdf'));
  const file = page.locator('[data-testid="message-item"][data-type="file"]');
  await expect(file).toHaveAttribute('data-status', 'failed');
  await expect(file.getByTestId('message-error')).toHaveText(
    'Storage is full, tell your administrator',
  );
  await switchLanguage(page, 'pt');
  await expect(file.getByTestId('message-error')).toHaveText(
    'O armazenamento está cheio, avise o seu administrador',
  );
});
