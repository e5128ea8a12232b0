import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { CHAT_URL, fillLogin } from '../support/app';
import { receiveChat } from '../support/chats';
import { WEB_DIST } from '../support/server';

/**
 * Issue 11, the first load: each screen downloads its own code (react-router lazy routes,
 * dialogs fetched when opened), compressed. The chunk names come from the build
 * (apps/web/vite.config.ts, scripts/screen-chunks.mjs): `start` for every screen, `console`
 * and the console's route modules for /home, one file per dialog.
 */
const CONSOLE_CODE =
  /\/assets\/(console|home-layout|console-page|open-chat|address-book-page|sandbox-route)-[\w-]+\.js$/;
const BATCH_DIALOG = /\/assets\/batch-reply-dialog-[\w-]+\.js$/;

interface Loaded {
  path: string;
  encoding: string | undefined;
}

/** The scripts the page fetches, with the encoding each one came in. */
function recordScripts(page: Page): Loaded[] {
  const scripts: Loaded[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    scripts.push({
      path: new URL(res.url()).pathname,
      encoding: res.headers()['content-encoding'],
    });
  });
  return scripts;
}

test('the login screen loads none of the console, in a few compressed files', async ({
  page,
  freshSeat,
}) => {
  const scripts = recordScripts(page);
  await page.goto('/login');
  await expect(page.getByTestId('login-submit')).toBeEnabled();
  await page.waitForLoadState('networkidle');

  const paths = scripts.map((s) => s.path);
  expect(paths.filter((p) => CONSOLE_CODE.test(p))).toEqual([]);
  expect(paths.some((p) => /\/assets\/start-[\w-]+\.js$/.test(p))).toBe(true);
  expect(paths.length).toBeLessThanOrEqual(8);
  // Chromium takes brotli: every script big enough to be worth it comes compressed.
  const big = scripts.filter((s) => !/rolldown-runtime|login-page/.test(s.path));
  expect(big.map((s) => [s.path, s.encoding])).toEqual(big.map((s) => [s.path, 'br']));

  // Signing in fetches the console's code, which the pattern above would have caught.
  await fillLogin(page, freshSeat.account, freshSeat.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(CHAT_URL);
  await expect(page.getByTestId('group-list')).toBeVisible();
  expect(scripts.some((s) => CONSOLE_CODE.test(s.path))).toBe(true);

  // A dialog's code comes when it is first opened, not with the console.
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((s) => BATCH_DIALOG.test(s.path))).toEqual([]);
  await page.getByTestId('batch-open').click();
  await expect(page.getByTestId('batch-dialog')).toBeVisible();
  expect(scripts.filter((s) => BATCH_DIALOG.test(s.path))).toHaveLength(1);
});

/**
 * Issue 37: the open chat's code (~52 KB) is fetched ahead only once the first rows are
 * painted, so it never shares the link with what the first row needs (the 300 KB by the first
 * row). The page notes when the first row entered the DOM; the chunk's request starts after it.
 */
test("the open chat's code is asked for after the first row is painted, not before", async ({
  page,
  parley,
  freshSeat,
}) => {
  await receiveChat(parley, freshSeat, ['Hello, a question about my order']);
  await page.addInitScript(() => {
    const w = window as unknown as { firstRowAt: number | null };
    w.firstRowAt = null;
    new MutationObserver(() => {
      if (w.firstRowAt === null && document.querySelector('[data-testid="user-item"]'))
        w.firstRowAt = performance.now();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/login');
  await fillLogin(page, freshSeat.account, freshSeat.password);
  // By keyboard: a pointer over the list fetches the chat's code on purpose (console-page.tsx).
  await page.getByTestId('login-password').press('Enter');
  await expect(page.getByTestId('user-item').first()).toBeVisible();
  const openChatStart = () =>
    page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .find((e) => /\/assets\/open-chat-[\w-]+\.js$/.test(new URL(e.name).pathname))
          ?.startTime ?? null,
    );
  await expect.poll(openChatStart).not.toBeNull();
  const firstRowAt = await page.evaluate(
    () => (window as unknown as { firstRowAt: number | null }).firstRowAt,
  );
  expect(firstRowAt).not.toBeNull();
  expect(await openChatStart()).toBeGreaterThan(firstRowAt!);
});

/** A built file's gzip size: the build's .gz, else gzipped here (the budgets are gzip). */
function gzipSize(urlPath: string): number {
  const file = path.join(WEB_DIST, urlPath);
  if (existsSync(`${file}.gz`)) return readFileSync(`${file}.gz`).length;
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/**
 * Issue 37, the first load by the first row: the scripts and stylesheets that have arrived
 * when the console's first row enters the page (Resource Timing at that moment, as
 * bench/first-load.mjs counts them) stay within the 300 KB gzip goal. The push socket's code
 * (zod's frame schemas) comes after the first row; 273 KB then, 295 KB once team accounts,
 * round trips and the channel map joined the console's chunk; 275.7 KB since the team's dialog,
 * queued preview, toast and menu items and the context menu's Translate come when first used;
 * 315.5 KB when the team's reply check brought zod (its 409005 schema now comes with the first
 * 409005) and the label filter Mantine's Select (now fetched once labels exist): 277.7 KB.
 * Held at 285 KB, a margin under the goal that the next feature must keep or split for.
 */
test('by its first row, a cold console has received at most 300 KB of code and styles (gzip)', async ({
  page,
  parley,
  freshSeat,
}) => {
  await receiveChat(parley, freshSeat, ['How much is shipping?']);
  await page.addInitScript(() => {
    const w = window as unknown as { arrivedByFirstRow: string[] | null };
    w.arrivedByFirstRow = null;
    new MutationObserver(() => {
      if (w.arrivedByFirstRow !== null || !document.querySelector('[data-testid="user-item"]'))
        return;
      w.arrivedByFirstRow = performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name).pathname)
        .filter((p) => /\.(js|css)$/.test(p));
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/login');
  await fillLogin(page, freshSeat.account, freshSeat.password);
  await page.getByTestId('login-password').press('Enter');
  await expect(page.getByTestId('user-item').first()).toBeVisible();
  const arrived = await page.evaluate(
    () => (window as unknown as { arrivedByFirstRow: string[] }).arrivedByFirstRow,
  );
  const files = [...new Set(arrived)];
  // The push socket's code and zod come after the first row.
  expect(files.filter((p) => /\/(push-connection|schemas)-[\w-]+\.js$/.test(p))).toEqual([]);
  const kb = files.reduce((sum, p) => sum + gzipSize(p), 0) / 1000;
  console.log(`first load by the first row: ${kb.toFixed(1)} KB gzip in ${files.length} files`);
  // Over the budget: what came, largest first, to find what to split.
  if (kb > 285) {
    for (const f of [...files].sort((a, b) => gzipSize(b) - gzipSize(a)))
      console.log(`  ${(gzipSize(f) / 1000).toFixed(1)} KB ${f}`);
  }
  expect(kb).toBeLessThanOrEqual(285);
});
