import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect } from '../support/fixtures';
import { adminSection } from '../support/admin';
import { makeTeam, pickCustomer, teamTest as test } from '../support/team';
import { REPO_ROOT } from '../support/server';
import { signIn } from '../support/app';
import { bubble, customerPhone, uniqueText } from '../support/chat';
import { builtInGroup, seatToken } from '../support/chats';
import { call } from '../support/api';

/**
 * Issue 35: one number staffed by two seats. The owner makes the account a team account in the
 * admin console; a sandbox customer writes; the chat waits in both members' queues; A takes it
 * (it leaves B's queue within 1 s), hands it to B with a note; B is told at once and sees the
 * note, which never reaches the customer; B's reply does.
 */
/** Notes a careless renderer would run or reshape. */
const HOSTILE_NOTES = [
  '<script>window.__pwned=2</script>',
  '<svg/onload=window.__pwned=3>',
  '[click](javascript:window.__pwned=4) {{constructor.constructor("window.__pwned=5")()}}',
  '\u202Egnp.exe ‮ & &amp; &lt;b&gt;',
];

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(REPO_ROOT, 'docs/screenshots', name) });

test('two seats on one team number: queue, take, hand-over with a note, reply', async ({
  freshSeat: seatA,
  seatB,
  pages,
  parley,
}) => {
  test.setTimeout(120_000);
  const { a, b, owner, customer } = pages;
  const card = await makeTeam(owner, seatA, seatB);

  await signIn(a, seatA.account, seatA.password);
  await signIn(b, seatB.account, seatB.password);
  for (const p of [a, b]) {
    await expect(p.getByTestId('queue-place')).toBeVisible();
    await p.getByTestId('queue-place').click();
    await expect(p.getByTestId('queue-empty')).toBeVisible();
  }

  // 1. A sandbox customer writes: the chat appears in both queues, pushed.
  const number = customerPhone();
  await pickCustomer(customer, seatA.phone, number);
  const hello = uniqueText('My parcel is late');
  await customer.getByTestId('sandbox-input').fill(hello);
  await customer.getByTestId('sandbox-send').click();
  const rowOf = (p: Page) =>
    p.locator(`[data-testid="queue-item"][data-receiver-phone="${number}"]`);
  for (const p of [a, b]) {
    await expect(rowOf(p)).toBeVisible();
    await expect(p.getByTestId('queue-count')).toHaveText('1');
  }
  const sessionId = Number(await rowOf(a).getAttribute('data-session-id'));

  // A labels the queued chat: both members' queue rows show the label (pushed), as text.
  const labelName = `<b>${uniqueText('Urgent')}</b>`.slice(0, 32);
  await adminSection(owner, 'labels');
  const labels = owner.getByTestId('labels-section');
  await labels.getByTestId('label-name').fill(labelName);
  await labels.getByTestId('label-create').click();
  const made = labels.getByTestId('label-row-chip').getByTestId('label-chip');
  await expect(made.filter({ hasText: labelName })).toHaveText(labelName);
  const labelId = Number(await made.filter({ hasText: labelName }).getAttribute('data-label-id'));
  const tokenA = await seatToken(parley.url, seatA);
  await call(
    parley.url,
    '/v1/seat/label/set',
    { session_id: sessionId, label_ids: [labelId] },
    tokenA,
  );
  for (const p of [a, b]) {
    await expect(rowOf(p).getByTestId('label-chip')).toHaveText(labelName);
    await expect(rowOf(p).locator('b')).toHaveCount(0);
  }
  await rowOf(a).getByTestId('queue-item-open').click();
  await expect(a.getByTestId('queued-message').filter({ hasText: hello })).toBeVisible();
  await shot(a, 'team-queue.png');

  // 2. A takes it: it leaves B's queue within 1 s of A's answer.
  const taken = a.waitForResponse((r) => r.url().endsWith('/v1/seat/team/take'));
  await a.getByTestId('queued-chat-take').click();
  await taken;
  await expect(rowOf(b)).toHaveCount(0, { timeout: 1_000 });
  await expect(b.getByTestId('queue-count')).toHaveCount(0);
  await expect(bubble(a, hello)).toBeVisible();
  await expect(a.getByTestId('chat-holder')).toHaveText(new RegExp(seatA.nickname));

  // 3. A hands it to B with a note (hostile-looking text stays text).
  const note = `Wants a refund <img src=x onerror="window.__pwned=1"> ${uniqueText('VIP')}`;
  await a.getByTestId('chat-hand-over').click();
  const dialog = a.getByTestId('hand-over-dialog');
  await dialog.getByTestId('hand-over-member').click();
  await a.getByRole('option', { name: new RegExp(seatB.nickname) }).click();
  await dialog.getByTestId('hand-over-note').fill(note);
  await shot(a, 'team-hand-over.png');
  await dialog.getByTestId('hand-over-submit').click();
  await expect(dialog).toBeHidden();
  // The chat left A's list and pane.
  await expect(a.getByTestId('chat-pane')).toHaveAttribute('data-empty', 'true');

  // B is told at once, with the note.
  const toast = b.getByTestId('team-assigned-toast');
  await expect(toast).toBeVisible({ timeout: 1_000 });
  await expect(b.getByTestId('team-assigned-note')).toHaveText(note);
  await builtInGroup(b, 'ungrouped').click();
  const row = b.locator(`[data-testid="user-item"][data-session-id="${sessionId}"]`);
  await row.click();
  await expect(bubble(b, hello)).toBeVisible();
  const card2 = b.getByTestId('team-note').filter({ hasText: 'VIP' });
  await expect(card2.getByTestId('team-note-content')).toHaveText(note);
  await expect(card2).toHaveAttribute('data-kind', 'handover');
  await expect(b.getByTestId('chat-holder')).toHaveText(new RegExp(seatB.nickname));
  // B adds a note of its own with the shortcut N.
  await b.keyboard.press('n');
  const own = uniqueText('Called the courier');
  await b.getByTestId('team-note-input').fill(own);
  await b.getByTestId('team-note-save').click();
  await expect(b.getByTestId('team-note-content').filter({ hasText: own })).toBeVisible();
  await shot(b, 'team-note.png');
  // Hostile notes are shown as the text they are, and run nothing.
  for (const hostile of HOSTILE_NOTES) {
    await b.getByTestId('team-note-write').click();
    await b.getByTestId('team-note-input').fill(hostile);
    await b.getByTestId('team-note-save').click();
    await expect(
      b.getByTestId('team-note-content').filter({ hasText: hostile.slice(0, 12) }),
    ).toHaveText(hostile);
  }
  await expect(
    b.locator('[data-testid="team-notes"] img, [data-testid="team-notes"] script'),
  ).toHaveCount(0);
  expect(await b.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

  // 5. B's reply reaches the customer; 4. no note ever does.
  const reply = uniqueText('Refund is on its way');
  await b.getByTestId('composer-input').fill(reply);
  await b.getByTestId('composer-send').click();
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: reply })).toHaveAttribute(
    'data-direction',
    'out',
  );
  // Read afresh, as the customer's channel has the chat: the two messages, no note.
  await pickCustomer(customer, seatA.phone, number);
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: reply })).toBeVisible();
  await expect(customer.getByTestId('sandbox-message')).toHaveCount(2);
  await expect(customer.getByText('VIP', { exact: false })).toHaveCount(0);
  await expect(customer.getByText(own)).toHaveCount(0);
  await expect(customer.getByText('__pwned', { exact: false })).toHaveCount(0);

  // The owner's view: the queue is empty, B holds one chat.
  await adminSection(owner, 'accounts');
  await expect(card.getByTestId('team-card-queue')).toHaveText('0', { timeout: 20_000 });
  await expect(
    card.getByTestId(`team-member-${seatB.account}`).getByTestId('team-member-open'),
  ).toHaveText('1', { timeout: 20_000 });
  await shot(owner, 'team-admin.png');
});
