import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type CDPSession, type Page, type Worker } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { signIn } from '../support/app';
import { receiveChat } from '../support/chats';

/**
 * Issue 37: the console is installable, and a push message delivered to its service worker
 * (by Chromium's DevTools protocol, as the browser's push service would) shows a notification
 * whose click lands on the chat.
 */

/** The app shell's worker, once the console has registered it and it controls the page. */
async function shellWorker(page: Page): Promise<Worker> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 20_000,
  });
  const worker = page
    .context()
    .serviceWorkers()
    .find((w) => w.url().endsWith('/sw.js'));
  return worker ?? page.context().waitForEvent('serviceworker');
}

/** The registration id CDP names the worker by (ServiceWorker domain). */
async function registrationId(cdp: CDPSession, scope: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const reg = registrations.find((r) => r.scopeURL === scope && !r.isDeleted);
      if (reg) resolve(reg.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

type Shown = { title: string; body: string; tag: string; url: string };
/** What the specs use of a service worker's global scope (e2e's types have no webworker lib). */
interface WorkerScope extends EventTarget {
  registration: { getNotifications(): Promise<(Notification & { data: unknown })[]> };
}
declare const NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
const shownIn = (worker: Worker) =>
  worker.evaluate(async () => {
    const list = await (self as unknown as WorkerScope).registration.getNotifications();
    return list.map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      url: (n.data as { url: string }).url,
    }));
  }) as Promise<Shown[]>;

test.describe('an installable console with Web Push', () => {
  // Blocked elsewhere (playwright.config.ts): these specs are about the worker.
  test.use({ serviceWorkers: 'allow' });
  // A fresh seat and a customer's chat are made through the CLI: slow on a loaded machine.
  test.describe.configure({ timeout: 180_000 });

  test('the login page registers no service worker', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.goto('/login');
    await expect(page.getByRole('button', { name: /log in|sign in/i }).first()).toBeVisible();
    await page.waitForTimeout(4_000);
    expect(asked).not.toContain('/sw.js');
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration())).toBeUndefined();
  });

  test('Chromium finds it installable: the manifest names the console, its icons and colour', async ({
    parley,
    freshSeat,
  }, testInfo) => {
    // A profile on disk: Playwright's usual contexts are incognito, where Chromium offers no install.
    const profile = mkdtempSync(path.join(tmpdir(), 'parley-install-'));
    const context = await chromium.launchPersistentContext(profile, {
      ...testInfo.project.use.launchOptions,
      baseURL: parley.url,
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await signIn(page, freshSeat.account, freshSeat.password);
      await shellWorker(page);
      const cdp = await context.newCDPSession(page);
      await expect
        .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors)
        .toEqual([]);
      const { url, errors } = await cdp.send('Page.getAppManifest');
      expect(url).toBe(`${parley.url}/manifest.webmanifest`);
      expect(errors).toEqual([]);
      const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as {
        name: string;
        start_url: string;
        handle_links: string;
        theme_color: string;
        icons: { sizes: string }[];
      };
      // A chat link opened while the console is installed lands in its window (Chromium reads
      // handle_links and launch_handler without an error above).
      expect(manifest).toMatchObject({
        name: 'Parley',
        start_url: '/home/chat',
        handle_links: 'preferred',
      });
      expect(manifest.theme_color).toMatch(/^#/);
      expect(manifest.icons.map((i) => i.sizes)).toEqual(
        expect.arrayContaining(['192x192', '512x512']),
      );

      // Settings: this device's switch, off until the operator turns it on.
      await page.getByTestId('user-menu').click();
      const toggle = page.getByRole('switch', { name: 'Notifications on this device' });
      await expect(toggle).toBeVisible();
      await expect(toggle).toBeEnabled();
      await expect(toggle).not.toBeChecked();
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  test("a pushed customer's message is notified, and its click opens the chat", async ({
    page,
    parley,
    freshSeat,
  }) => {
    const chat = await receiveChat(parley, freshSeat, ['Hello from the road']);
    await page.context().grantPermissions(['notifications'], { origin: parley.url });
    await signIn(page, freshSeat.account, freshSeat.password);
    const worker = await shellWorker(page);
    const cdp = await page.context().newCDPSession(page);
    const id = await registrationId(cdp, `${parley.url}/`);
    const payload = {
      title: 'Ana Souza',
      body: 'Where is my parcel?',
      url: `/home/chat?chat=${chat.session_id}`,
      tag: `chat-${chat.session_id}`,
      session_id: chat.session_id,
    };
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: parley.url,
      registrationId: id,
      data: JSON.stringify(payload),
    });
    await expect
      .poll(() => shownIn(worker))
      .toEqual([
        {
          title: 'Ana Souza',
          body: 'Where is my parcel?',
          tag: payload.tag,
          url: payload.url,
        },
      ]);

    // The operator clicks it: the console moves to that chat.
    await worker.evaluate(async () => {
      const scope = self as unknown as WorkerScope;
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(
        new NotificationEvent('notificationclick', { notification: notification! }),
      );
    });
    await expect(page).toHaveURL(new RegExp(`/home/chat\\?chat=${chat.session_id}$`));
    await expect(page.getByTestId('chat-title')).toHaveText(chat.receiver_phone);
    await expect.poll(() => shownIn(worker)).toEqual([]);

    // A message to the chat in front is not notified; one to another chat is.
    const push = (p: typeof payload) =>
      cdp.send('ServiceWorker.deliverPushMessage', {
        origin: parley.url,
        registrationId: id,
        data: JSON.stringify(p),
      });
    await push({ ...payload, body: 'Seen in front' });
    await push({ ...payload, body: 'Elsewhere', session_id: 999_999, tag: 'chat-999999' });
    await expect
      .poll(async () => (await shownIn(worker)).map((n) => n.body))
      .toEqual(['Elsewhere']);
  });
});
