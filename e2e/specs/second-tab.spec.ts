import { OTHER_MESSAGES, TAB_CHECK_DELAY_MS, TAB_CHECK_INTERVAL_MS } from '@parley/protocol';
import { test, expect } from '../support/fixtures';
import { CHAT_URL, signIn } from '../support/app';

/** Long enough for the first check (2 s) and one more round (3 s), with slack. */
const BAN_WITHIN = TAB_CHECK_DELAY_MS + TAB_CHECK_INTERVAL_MS + 3_000;

test('a second tab is sent to the ban page; "Use here" takes the session over', async ({
  page: pageA,
  context,
  freshSeat,
}) => {
  test.setTimeout(60_000);
  await signIn(pageA, freshSeat.account, freshSeat.password);

  // The only tab stays on the console past the first check.
  await pageA.waitForTimeout(TAB_CHECK_DELAY_MS + 500);
  await expect(pageA).toHaveURL(CHAT_URL);

  // A second tab of the same browser.
  const pageB = await context.newPage();
  const openedAt = Date.now();
  await pageB.goto('/home/chat');
  await expect(pageB).toHaveURL(/\/ban-page$/, { timeout: BAN_WITHIN });
  // It is checked after the initial delay, not at once.
  expect(Date.now() - openedAt).toBeGreaterThanOrEqual(TAB_CHECK_DELAY_MS - 1_000);
  await expect(pageB.getByTestId('ban-message')).toHaveText(OTHER_MESSAGES.appOpenInAnotherTab);

  // The first tab keeps working through the next check rounds.
  await pageA.waitForTimeout(TAB_CHECK_INTERVAL_MS + 500);
  await expect(pageA).toHaveURL(CHAT_URL);
  await expect(pageA.getByTestId('group-list')).toBeVisible();

  // "Use here": B gets the console back and A is sent to the ban page.
  await pageB.getByTestId('ban-use-here').click();
  await expect(pageB).toHaveURL(CHAT_URL);
  await expect(pageB.getByTestId('group-list')).toBeVisible();
  await expect(pageA).toHaveURL(/\/ban-page$/, { timeout: BAN_WITHIN });
  await expect(pageA.getByTestId('ban-message')).toHaveText(OTHER_MESSAGES.appOpenInAnotherTab);

  // And B keeps it.
  await pageB.waitForTimeout(TAB_CHECK_INTERVAL_MS + 500);
  await expect(pageB).toHaveURL(CHAT_URL);
  await expect(pageB.getByTestId('group-list')).toBeVisible();
});

test('reloading the only tab does not send it to the ban page', async ({ page, freshSeat }) => {
  await signIn(page, freshSeat.account, freshSeat.password);
  await page.reload();
  await expect(page.getByTestId('group-list')).toBeVisible();
  // Past the first check and one more round.
  await page.waitForTimeout(TAB_CHECK_DELAY_MS + TAB_CHECK_INTERVAL_MS + 500);
  await expect(page).toHaveURL(CHAT_URL);
  await expect(page.getByTestId('group-list')).toBeVisible();
});
