import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { switchLanguage, userItem } from '../support/app';
import { openFreshChat } from '../support/chat';
import { tr, UI_LANGS } from '../support/locales';
import { REPO_ROOT } from '../support/server';

const MEDIA_DIR = path.join(REPO_ROOT, 'e2e/fixtures/media');

async function send(page: Page, file: string, type: 'file' | 'audio') {
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('composer-attach').click();
  await (await chooser).setFiles(path.join(MEDIA_DIR, file));
  const sent = page.locator(
    `[data-testid="message-item"][data-type="${type}"][data-direction="out"]:not([data-local="true"])`,
  );
  await expect(sent).toHaveCount(1, { timeout: 20_000 });
}

test.describe('the user list previews a media message with one translated label', () => {
  test('a file shows "[File] doc.pdf", an audio "[Audio]", in zh-CN, en, pt and ru; never the server’s own placeholder', async ({
    page,
    parley,
    freshSeat,
  }) => {
    test.setTimeout(120_000);
    const { session } = await openFreshChat(page, parley, freshSeat);
    const row = userItem(page, session.session_id);

    await send(page, 'doc.pdf', 'file');
    for (const lang of UI_LANGS) {
      await switchLanguage(page, lang);
      await expect(row).toContainText(`${tr(lang, '[File]', 'chat')} doc.pdf`);
      await expect(row).not.toContainText('[file]');
      await expect(row.getByTestId('user-preview')).toHaveText(
        `${tr(lang, '[File]', 'chat')} doc.pdf`,
      );
    }

    await send(page, 'tone.mp3', 'audio');
    for (const lang of UI_LANGS) {
      await switchLanguage(page, lang);
      await expect(row).toContainText(tr(lang, '[Audio]', 'chat'));
      await expect(row).not.toContainText('[audio]');
      await expect(row.getByTestId('user-preview')).toHaveText(tr(lang, '[Audio]', 'chat'));
    }
  });
});
