import { CALL_PATHS, PLATFORM_PATHS } from '@parley/protocol';
import { test, expect } from '../support/fixtures';

// /docs/api: the OpenAPI document rendered by Swagger UI, served by Parley itself (no CDN) and
// under its Content-Security-Policy (the fixture fails the test on any violation).

test('/docs/api lists every call from the served document, offline and under the CSP', async ({
  page,
  baseURL,
}) => {
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(baseURL!) && !request.url().startsWith('data:')) {
      elsewhere.push(request.url());
    }
  });
  const document = page.waitForResponse((r) => r.url().endsWith('/docs/api/json'));
  await page.goto('/docs/api');
  expect((await document).status()).toBe(200);

  await expect(page.locator('.swagger-ui .info .title')).toContainText('Parley API');
  const paths = page.locator('.opblock-summary-path');
  for (const path of [...CALL_PATHS, ...Object.values(PLATFORM_PATHS), '/v1/seat/chat/upload']) {
    await expect(paths.filter({ hasText: new RegExp(`^${path}$`) }), path).toHaveCount(1);
  }

  // A call opens with its examples: the request body and the answer, refusals included.
  await page.locator('.opblock-summary-path', { hasText: /^\/v1\/seat\/chat\/login$/ }).click();
  const login = page.locator('.opblock.is-open');
  await expect(login.locator('.body-param__example, .microlight').first()).toContainText(
    'correct-horse-1',
  );
  await expect(login.locator('.examples-select-element').first()).toBeVisible();
  expect(elsewhere, 'requests outside the server').toEqual([]);
});

test('/v1/openapi.json is the OpenAPI 3.1 document', async ({ request }) => {
  const res = await request.get('/v1/openapi.json');
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(CALL_PATHS));
});
