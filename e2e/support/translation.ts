import { startApertium, type Apertium } from '../../apps/server/test/apertium';
import { test } from './fixtures';
import { startServer, type ParleyServer } from './server';

/** A worker's seat service with these settings, stopped when the worker ends. */
export async function serveWith(
  env: Record<string, string>,
  use: (server: ParleyServer) => Promise<void>,
): Promise<void> {
  const server = await startServer(env);
  try {
    await use(server);
  } finally {
    await server.stop();
  }
}

/**
 * Specs that translate: each worker starts the real Apertium APY (Debian packages apertium-apy
 * and apertium-eng-spa) on a free loopback port and its own seat service using it as the only
 * engine. Playwright runs these specs in workers of their own (the `parley` fixture differs).
 */
export const translationTest = test.extend<object, { apertium: Apertium }>({
  apertium: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const apy = await startApertium();
      try {
        await use(apy);
      } finally {
        await apy.stop();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  parley: [
    ({ apertium }, use) =>
      serveWith({ APERTIUM_URL: apertium.url, PARLEY_TRANSLATION_PROVIDERS: 'apertium' }, use),
    { scope: 'worker', timeout: 90_000 },
  ],
});
