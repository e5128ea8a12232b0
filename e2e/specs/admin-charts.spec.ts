import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test as base, expect } from '../support/fixtures';
import { customerPhone, uniqueText } from '../support/chat';
import { adminLogin } from '../support/admin';

/**
 * Issue 28, the owner's charts: in a half-hour zone (the browser in Asia/Kolkata), a
 * customer's message moves the current hour's "in" bar of its seat without a reload, fetching
 * only that hour; the series exports as a CSV a spreadsheet can read.
 */
const test = base.extend<{ customer: Page }>({
  customer: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
});
test.use({ timezoneId: 'Asia/Kolkata', locale: 'en-US' });

/** The "In" cell of the chart table's row for the hour now (the table screen readers read). */
const inNow = (page: Page) =>
  page.getByTestId('seat-stats-charts').evaluate((section) => {
    const rows = [...section.querySelectorAll('[data-testid="stats-table-messages"] tbody tr')];
    const now = Date.now();
    const row = rows.filter((r) => Number(r.getAttribute('data-start')) <= now).pop();
    return row?.querySelectorAll('td')[0]?.textContent ?? null;
  });

/** The dialog's "Busiest hours" In count for the local hour now (its screen readers' table). */
const busiestNow = (page: Page) =>
  page.getByTestId('seat-busiest-table').evaluate((table) => {
    const hour = new Date().getHours();
    return table.querySelector(`tr[data-hour="${hour}"] td`)?.textContent ?? null;
  });

test("a sandbox customer's message moves the seat's current hour without a reload, and the dialog's hours and waits with it", async ({
  page,
  customer,
  freshSeat,
}) => {
  await adminLogin(page);
  await expect(page.getByTestId('admin-live')).toHaveAttribute('data-live', 'true');
  await expect(page.getByTestId('stats-chart-messages')).toBeVisible();
  await page.getByTestId(`seat-stats-${freshSeat.account}`).click();
  const charts = page.getByTestId('seat-stats-charts');
  await expect(charts.getByTestId('stats-chart-waiting')).toBeVisible();
  // 24 local hours from local midnight, which is :30 past a UTC hour here.
  const starts = await charts
    .getByTestId('stats-table-messages')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-start'))));
  expect(starts).toHaveLength(24);
  expect(new Date(starts[0]!).getUTCMinutes()).toBe(30);
  await expect.poll(() => inNow(page)).toBe('0');
  // Issue 37: the panels below the charts start empty too.
  await expect(page.getByTestId('seat-none-waiting')).toBeVisible();
  await expect.poll(() => busiestNow(page)).toBe('0');

  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  const seriesBodies: { since?: number; sentAt: number }[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/v1/admin/stats/series') {
      seriesBodies.push({ ...(r.postDataJSON() as { since?: number }), sentAt: Date.now() });
    }
  });

  await customer.goto('/sandbox');
  await customer.getByTestId('sandbox-account').click();
  await customer
    .getByRole('option', { name: new RegExp(freshSeat.phone.replace('+', '\\+')) })
    .click();
  await customer.getByTestId('sandbox-customer').fill(customerPhone());
  const text = uniqueText('Is my parcel on its way?');
  await customer.getByTestId('sandbox-input').fill(text);
  await customer.getByTestId('sandbox-send').click();
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: text })).toBeVisible();

  await expect.poll(() => inNow(page)).toBe('1');
  // The dialog's panels follow the same pushes: never "Chats waiting = 1" above "No chat is
  // waiting" (issue 37).
  await expect.poll(() => busiestNow(page)).toBe('1');
  await expect(page.getByTestId('seat-waiting-longest').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('seat-none-waiting')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  // Each push fetched the current hour only, never a whole series again: `since` is the
  // start of the local hour the push came in (local midnight itself in the day's first hour,
  // 18:30 UTC here, so it is compared with that hour, not with the day's start).
  expect(seriesBodies.length).toBeGreaterThan(0);
  for (const body of seriesBodies) {
    expect(starts).toContain(body.since);
    expect(body.since!).toBeLessThanOrEqual(body.sentAt);
    expect(body.sentAt - body.since!).toBeLessThan(60 * 60 * 1000 + 5_000);
  }
});

test('the series exports as a CSV, one row per local hour', async ({ page }) => {
  await adminLogin(page);
  await expect(page.getByTestId('stats-chart-messages')).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('stats-charts').getByTestId('export-series').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    /^parley-series-all-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const lines = readFileSync((await download.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  const [head, ...rows] = lines.map((l) => l.split(','));
  expect(head!.slice(0, 4)).toEqual(['start_utc', 'local_time', 'messages_in', 'messages_out']);
  expect(rows).toHaveLength(24);
  expect(rows.map((r) => r[1]!.slice(11))).toEqual(
    Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`),
  );
  expect(rows[0]![0]).toMatch(/T18:30:00\.000Z$/);
  for (const r of rows) expect(Number(r[2])).toBeGreaterThanOrEqual(0);
});

test('the per-seat table exports over a range the owner chooses, one row per seat', async ({
  page,
  freshSeat,
}) => {
  await adminLogin(page);
  await expect(page.getByTestId('stats-chart-messages')).toBeVisible();
  const charts = page.getByTestId('stats-charts');
  await charts.getByTestId('export-range').click();
  await page.getByTestId('export-from').fill('2026-01-01');
  await page.getByTestId('export-to').fill('2026-03-31');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-seatTotals').click(),
  ]);
  expect(download.suggestedFilename()).toBe('parley-seats-2026-01-01-2026-03-31.csv');
  const [head, ...rows] = readFileSync((await download.path())!, 'utf8')
    .trimEnd()
    .split('\r\n')
    .map((l) => l.split(','));
  expect(head!.slice(0, 8)).toEqual([
    'seat_id',
    'account',
    'nickname',
    'messages_in',
    'messages_out',
    'first_responses',
    'first_response_median_ms',
    'first_response_p90_ms',
  ]);
  // After the engines' columns: the chats waiting now, then the team figures (issue 35).
  expect(head!.slice(-5)).toEqual([
    'waiting_now',
    'assignments',
    'handovers',
    'back_to_queue',
    'queue_wait_avg_ms',
  ]);
  // A seat made today wrote nothing in those months.
  const seat = rows.find((r) => r[1] === freshSeat.account);
  expect(seat?.slice(3, 6)).toEqual(['0', '0', '0']);
  expect(seat?.slice(-4, -1)).toEqual(['0', '0', '0']);
});
