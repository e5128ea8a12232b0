import path from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect } from '../support/fixtures';
import { REPO_ROOT } from '../support/server';
import { bubble, customerPhone, findSession, openChat, uniqueText } from '../support/chat';
import { rowMenu } from '../support/chats';
import { apiLogin, call } from '../support/api';
import { login } from '../support/app';

/**
 * Two real parties: a customer on the sandbox page and the operator in the console, each in
 * its own browser context, talking through the platform bridge (signed inbound requests, the
 * outbox and the sandbox channel).
 */
const media = (name: string) => path.join(REPO_ROOT, 'e2e/fixtures/media', name);
const photo = media('photo.png');

/** The customer: a page of its own browser context, beside the operator's `page`. */
const test = base.extend<{ customer: Page }>({
  customer: async ({ browser, parley }, use) => {
    const context = await browser.newContext({ baseURL: parley.url });
    await use(await context.newPage());
    await context.close();
  },
});

/** The sandbox page as the customer `number` writing to the account `phone`. */
async function pickCustomer(customer: Page, phone: string, number: string) {
  await customer.goto('/sandbox');
  await customer.getByTestId('sandbox-account').click();
  await customer.getByRole('option', { name: new RegExp(phone.replace('+', '\\+')) }).click();
  await customer.getByTestId('sandbox-customer').fill(number);
}

/** Opens the sandbox as a new customer `number` of the account `phone`. */
async function openSandbox(customer: Page, phone: string, number: string) {
  await pickCustomer(customer, phone, number);
  await expect(customer.getByTestId('sandbox-empty')).toBeVisible();
}

async function customerSays(customer: Page, text: string) {
  await customer.getByTestId('sandbox-input').fill(text);
  await customer.getByTestId('sandbox-send').click();
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: text })).toHaveAttribute(
    'data-direction',
    'in',
  );
}

test('a customer and the operator chat through the bridge: text, images, ticks, deletion, block', async ({
  page,
  customer,
  parley,
  freshSeat,
}) => {
  const number = customerPhone();
  // The operator is in the console before the customer writes: the chat arrives pushed.
  await login(page, freshSeat.account, freshSeat.password);
  await openSandbox(customer, freshSeat.phone, number);
  const hello = uniqueText('Hello from the sandbox');
  await customerSays(customer, hello);
  const { token } = await apiLogin(parley.url, freshSeat.account, freshSeat.password);
  const session = await findSession(parley.url, token, number);
  await openChat(page, session.session_id);
  await expect(bubble(page, hello)).toHaveAttribute('data-direction', 'in');

  // The operator answers; the customer sees it, and the operator's tick becomes "read".
  const answer = uniqueText('Operator here');
  await page.getByTestId('composer-input').fill(answer);
  await page.getByTestId('composer-send').click();
  const operatorLine = customer.getByTestId('sandbox-message').filter({ hasText: answer });
  await expect(operatorLine).toHaveAttribute('data-direction', 'out');
  // Pushed: delivered, then read (the customer's page is in view), without a reload.
  await expect(bubble(page, answer)).toHaveAttribute('data-status', 'read');

  // An image each way.
  const chooser = customer.waitForEvent('filechooser');
  await customer.getByTestId('sandbox-attach').click();
  await (await chooser).setFiles(photo);
  await expect(customer.getByTestId('sandbox-image')).toHaveCount(1);
  await expect(
    page.locator('[data-testid="message-item"][data-direction="in"][data-type="image"]'),
  ).toHaveCount(1);
  const sent = page.waitForEvent('filechooser');
  await page.getByTestId('composer-attach').click();
  await (await sent).setFiles(photo);
  const theirs = customer.locator(
    '[data-testid="sandbox-message"][data-direction="out"] [data-testid="sandbox-image"]',
  );
  await expect(theirs).toHaveCount(1);
  await expect
    .poll(() => theirs.evaluate((el: HTMLImageElement) => el.naturalWidth))
    .toBeGreaterThan(0);

  // Deleted for all: the customer's copy is retracted.
  await bubble(page, answer).click({ button: 'right' });
  await page.getByTestId('message-action-delete').click();
  const dialog = page.getByTestId('delete-message-dialog');
  await dialog.getByTestId('delete-scope-all').check();
  await dialog.getByTestId('delete-message-confirm').click();
  await expect(operatorLine).toHaveCount(0);
  await expect(
    customer.locator('[data-testid="sandbox-message"][data-direction="out"][data-deleted="true"]'),
  ).toHaveCount(1);

  // Blocked: the customer's next message is refused, and the operator never gets it.
  await (await rowMenu(page, session.session_id)).getByTestId('session-action-block').click();
  await expect(page.getByTestId('chat-blocked')).toBeVisible();
  const refused = uniqueText('Are you there');
  await customer.getByTestId('sandbox-input').fill(refused);
  await customer.getByTestId('sandbox-send').click();
  await expect(
    customer
      .getByTestId('sandbox-message')
      .filter({ hasText: refused })
      .getByTestId('sandbox-blocked'),
  ).toBeVisible();
  await page.reload();
  await expect(bubble(page, refused)).toHaveCount(0);
});

test('a chat the operator adds: its greeting reaches the customer, and shows read', async ({
  page,
  customer,
  freshSeat,
}) => {
  const number = customerPhone();
  await login(page, freshSeat.account, freshSeat.password);
  await openSandbox(customer, freshSeat.phone, number);

  const greeting = uniqueText('Hello from Parley, how can we help');
  await page.getByTestId('add-chat-open').click();
  await page.getByTestId('add-chat-number').fill(number);
  await page.getByTestId('add-chat-greeting').fill(greeting);
  await page.getByTestId('add-chat-submit').click();
  await expect(page.getByTestId('add-chat-dialog')).toHaveCount(0);

  const line = customer.getByTestId('sandbox-message').filter({ hasText: greeting });
  await expect(line).toHaveAttribute('data-direction', 'out');
  await expect(customer.getByTestId('sandbox-message')).toHaveCount(1);
  // The customer's page shows it: the operator's tick on the greeting becomes "read".
  await expect(bubble(page, greeting)).toHaveAttribute('data-status', 'read');
});

test('audio, video and a file go both ways through the bridge, each as its kind', async ({
  page,
  customer,
  parley,
  freshSeat,
}) => {
  const number = customerPhone();
  const files = { audio: 'tone.mp3', video: 'clip.mp4', file: 'doc.pdf' } as const;
  await login(page, freshSeat.account, freshSeat.password);
  await openSandbox(customer, freshSeat.phone, number);
  // The customer sends each, one pick at a time.
  for (const [type, name] of Object.entries(files)) {
    const chooser = customer.waitForEvent('filechooser');
    await customer.getByTestId('sandbox-attach').click();
    await (await chooser).setFiles(media(name));
    await expect(
      customer.locator(`[data-testid="sandbox-message"][data-direction="in"][data-type="${type}"]`),
    ).toHaveCount(1);
  }
  const { token } = await apiLogin(parley.url, freshSeat.account, freshSeat.password);
  const session = await findSession(parley.url, token, number);
  await openChat(page, session.session_id);
  for (const type of Object.keys(files)) {
    await expect(
      page.locator(`[data-testid="message-item"][data-direction="in"][data-type="${type}"]`),
    ).toHaveCount(1);
  }

  // The operator sends the three together; the customer gets each as its kind, downloadable.
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('composer-attach').click();
  await (await chooser).setFiles(Object.values(files).map(media));
  for (const type of Object.keys(files)) {
    const line = customer.locator(
      `[data-testid="sandbox-message"][data-direction="out"][data-type="${type}"]`,
    );
    await expect(line).toHaveCount(1);
    const href = await line.getByTestId('sandbox-media-link').getAttribute('href');
    const res = await customer.request.get(href!);
    expect(res.status()).toBe(200);
    expect((await res.body()).length).toBeGreaterThan(0);
  }
  // The operator's file shows with its name and downloads under it; audio and video show
  // their length before they are played.
  const out = (type: string) =>
    customer.locator(`[data-testid="sandbox-message"][data-direction="out"][data-type="${type}"]`);
  await expect(out('file').getByTestId('sandbox-file-name')).toHaveText(files.file);
  const download = customer.waitForEvent('download');
  await out('file').getByTestId('sandbox-media-link').click();
  expect((await download).suggestedFilename()).toBe(files.file);
  await expect(out('audio').getByTestId('sandbox-file-name')).toHaveText(files.audio);
  await expect(out('audio').getByTestId('media-duration')).toHaveText('0:01');
  await expect(out('video').getByTestId('media-duration')).toHaveText('0:01');
});

test("a customer number stays the browser's that played it first: another browser gets nothing", async ({
  browser,
  customer,
  parley,
  freshSeat,
}) => {
  const number = customerPhone();
  await openSandbox(customer, freshSeat.phone, number);
  await customerSays(customer, uniqueText('What is my code'));
  // The operator answers (through the API: the console is not what this is about).
  const { token } = await apiLogin(parley.url, freshSeat.account, freshSeat.password);
  const answer = uniqueText('Your code is');
  await call(
    parley.url,
    '/v1/seat/chat/message',
    {
      send_phone: freshSeat.phone,
      receiver_phone: number,
      type: 'text',
      content: answer,
      client_msg_id: uniqueText('claim').replace(/\W/g, ''),
    },
    token,
  );
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: answer })).toHaveCount(1);

  // Someone else, in another browser, who knows the number.
  const context = await browser.newContext({ baseURL: parley.url });
  try {
    const stranger = await context.newPage();
    await pickCustomer(stranger, freshSeat.phone, number);
    await expect(stranger.getByTestId('sandbox-taken')).toBeVisible();
    await expect(stranger.getByTestId('sandbox-message')).toHaveCount(0);
    await expect(stranger.getByText(answer)).toHaveCount(0);
    await expect(stranger.getByTestId('sandbox-send')).toBeDisabled();
    // A number of its own is its own.
    await stranger.getByTestId('sandbox-customer').fill(customerPhone());
    await expect(stranger.getByTestId('sandbox-empty')).toBeVisible();
    await expect(stranger.getByTestId('sandbox-taken')).toHaveCount(0);
  } finally {
    await context.close();
  }

  // The first browser, reloaded, is still that customer: it keeps its key.
  await pickCustomer(customer, freshSeat.phone, number);
  await expect(customer.getByTestId('sandbox-message').filter({ hasText: answer })).toHaveCount(1);
});
