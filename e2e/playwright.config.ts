import { defineConfig, devices } from '@playwright/test';

const CI = !!process.env.CI;

/**
 * Browser tests of the built web console against the real built seat service.
 * Each worker starts its own server with its own data directory (see support/fixtures.ts);
 * nothing is started here.
 */
export default defineConfig({
  testDir: 'specs',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  // Two cores on the reference machine: one server and one browser per worker.
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    locale: 'en-US',
    timezoneId: 'UTC',
    // A failed test keeps its trace (actions, DOM snapshots, network, console) without the
    // screencast: recording screenshots all along cost as much CPU as the tests themselves
    // (`--trace on` records everything when a failure needs the film).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    // The console's service worker (Web Push, offline start) only where a spec asks for it
    // (web-push.spec.ts): a worker answering navigations and assets would hide them from
    // page.route and change what a reload shows while a spec holds the server down.
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        locale: 'en-US',
        launchOptions: {
          // Debian's Chromium (scripts/ensure-chromium.sh); never a downloaded build.
          executablePath: process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            // A fake microphone and camera (a beep, a test pattern) for voice notes; whether a
            // page may use them stays a permission (specs grant `microphone` where needed).
            '--use-fake-device-for-media-stream',
          ],
        },
      },
    },
  ],
});
