import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { signIn, userItem } from '../support/app';
import { adminLogin, adminSection } from '../support/admin';
import { openChat, receiveChat } from '../support/chats';
import { uniqueText } from '../support/chat';

/**
 * Issue 35, labels: the owner creates labels in the admin console; a seat puts one on a
 * customer from the profile card, sees it in the row and on the card, and filters the list by
 * it. A label whose name is markup is shown as text everywhere.
 */
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

async function createLabel(owner: Page, name: string, color: string) {
  const section = owner.getByTestId('labels-section');
  await section.getByTestId('label-name').fill(name);
  await section.getByTestId('label-color').click();
  await owner.getByRole('option', { name: color, exact: true }).click();
  await section.getByTestId('label-create').click();
  await expect(
    section.getByTestId('label-row-chip').getByTestId('label-chip').filter({ hasText: name }),
  ).toHaveText(name);
}

test('the owner creates labels; a seat labels a customer, sees it in the row and card, filters by it', async ({
  page,
  parley,
  freshSeat,
  browser,
}) => {
  test.setTimeout(120_000);
  const vip = uniqueText('VIP').slice(0, 30);
  const owner = await (await browser.newContext({ baseURL: parley.url })).newPage();
  await adminLogin(owner);
  await adminSection(owner, 'labels');
  await createLabel(owner, vip, 'Green');
  await createLabel(owner, HOSTILE.slice(0, 32), 'Red');
  const hostile = HOSTILE.slice(0, 32);

  const labelled = await receiveChat(parley, freshSeat, ['I want the premium plan']);
  const other = await receiveChat(parley, freshSeat, ['Just looking']);
  await signIn(page, freshSeat.account, freshSeat.password);
  await openChat(page, labelled.session_id);
  await page.getByTestId('chat-title').click();
  const card = page.getByTestId('profile-card');
  await expect(card).toBeVisible();
  const picker = card.getByTestId('label-picker');
  await picker.click();
  await page.getByRole('option', { name: vip }).click();
  const cardChips = card.getByTestId('profile-labels').getByTestId('label-chip');
  await expect(cardChips).toHaveCount(1);
  // The picker is closed while a change is saved: opened again for the second label.
  await picker.click();
  await page.getByRole('option', { name: hostile }).click();
  // The card and the row show both, by name, as text.
  await expect(cardChips).toHaveCount(2);
  await expect(cardChips.filter({ hasText: vip })).toHaveText(vip);
  await expect(cardChips.filter({ hasText: 'img' })).toHaveText(hostile);
  await page.keyboard.press('Escape');
  const row = userItem(page, labelled.session_id);
  await expect(row.getByTestId('label-chip')).toHaveCount(2);
  await expect(row.getByTestId('label-chip').filter({ hasText: 'img' })).toHaveText(hostile);
  await expect(row.locator('img[src="x"]')).toHaveCount(0);

  // The list filtered by the label: the labelled chat only.
  await expect(userItem(page, other.session_id)).toBeVisible();
  await page.getByTestId('label-filter').click();
  await page.getByRole('option', { name: vip }).click();
  await expect(userItem(page, other.session_id)).toHaveCount(0);
  await expect(userItem(page, labelled.session_id)).toBeVisible();

  // The owner renames the label: the row follows (labels.changed), filter kept.
  const renamed = `${vip.slice(0, 24)} gold`;
  const ownerRow = owner
    .getByTestId('label-row')
    .filter({ has: owner.getByTestId('label-chip').filter({ hasText: vip }) });
  await ownerRow.getByTestId('label-row-name').fill(renamed);
  await ownerRow.getByTestId('label-row-save').click();
  await expect(row.getByTestId('label-chip').filter({ hasText: renamed })).toHaveText(renamed);

  // Nothing of a hostile name ran, in the console or the admin console.
  for (const p of [page, owner]) {
    expect(await p.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  }

  await owner.context().close();
});
