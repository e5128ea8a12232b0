import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect } from '../support/fixtures';
import { REPO_ROOT, startServer, type ParleyServer } from '../support/server';
import { accountRow, adminLogin, adminSection, adminText } from '../support/admin';
import { signIn } from '../support/app';
import { localeStrings } from '../support/locales';
import { bubble, findSession, openChat, seatToken } from '../support/chats';
import { startApertium, type Apertium } from '../../apps/server/test/apertium';
// The server tests' local Graph API: an HTTP server following Meta's WhatsApp Cloud API
// reference (Graph API v21.0), with signed webhooks.
import {
  postWebhook,
  WhatsAppGraphServer,
  type GraphNumber,
} from '../../apps/server/test/whatsapp-graph-api-server';

/**
 * Issue 27: a WhatsApp Business number, end to end. An administrator binds it in the admin
 * console (checked with the Graph API; the webhook URL and verify token shown for Meta), a
 * customer writes through a signed webhook, the operator opens the chat (WhatsApp gets the read
 * mark), answers with a reply translated by the real Apertium engine and an image (uploaded to
 * the Graph API, then sent by id), and the ticks go to read as the customer's phone reports.
 */
const test = base.extend<{ graph: WhatsAppGraphServer; apertium: Apertium; server: ParleyServer }>({
  // eslint-disable-next-line no-empty-pattern
  graph: async ({}, use) => {
    const graph = await new WhatsAppGraphServer().start();
    await use(graph);
    await graph.stop();
  },
  // eslint-disable-next-line no-empty-pattern
  apertium: async ({}, use) => {
    const apy = await startApertium();
    try {
      await use(apy);
    } finally {
      await apy.stop();
    }
  },
  server: async ({ graph, apertium }, use) => {
    const server = await startServer({
      PARLEY_WHATSAPP_GRAPH_URL: graph.url,
      APERTIUM_URL: apertium.url,
      PARLEY_TRANSLATION_PROVIDERS: 'apertium',
    });
    try {
      await use(server);
    } finally {
      await server.stop();
    }
  },
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
});

/** Translation on for Spanish customers and an English operator, stored before the console loads. */
async function storeTranslation(page: Page) {
  await page.goto('/healthz');
  await page.evaluate(() => {
    window.localStorage.setItem(
      'translate',
      JSON.stringify({
        isEnable: true,
        mode: 'single',
        sourceLanguage: 'ES',
        targetLanguage: 'EN',
      }),
    );
  });
}

async function bindInConsole(page: Page, phone: string, n: GraphNumber) {
  await adminLogin(page);
  await adminSection(page, 'accounts');
  const row = await accountRow(page, phone);
  await row.getByTestId('account-channel-open').click();
  const dialog = page.getByTestId('account-channel-dialog');
  await dialog
    .getByTestId('account-channel-choice')
    .getByText(adminText('en', 'accounts.channels.whatsapp'), { exact: true })
    .click();
  await dialog.getByTestId('whatsapp-phone-number-id').fill(n.phoneNumberId);
  await dialog.getByTestId('whatsapp-waba-id').fill(n.wabaId);
  await dialog.getByTestId('whatsapp-access-token').fill(n.token);
  await dialog.getByTestId('whatsapp-app-secret').fill(n.appSecret);
  await dialog.getByTestId('account-channel-submit').click();
  // Checked with the Graph API, then what to paste into Meta's settings.
  const status = dialog.getByTestId('whatsapp-status');
  await expect(status.getByTestId('whatsapp-verified-name')).toHaveText(n.verifiedName);
  await expect(status.getByTestId('whatsapp-quality')).toContainText('GREEN');
  await expect(status.getByTestId('whatsapp-webhook-url')).toHaveText(
    new RegExp(`/v1/whatsapp/webhook/${n.phoneNumberId}$`),
  );
  const verifyToken = (await status.getByTestId('whatsapp-verify-token').textContent()) ?? '';
  expect(verifyToken.length).toBeGreaterThan(20);
  // The secrets are never shown back.
  await expect(dialog).not.toContainText(n.token);
  await expect(dialog).not.toContainText(n.appSecret);
  await page.keyboard.press('Escape');
  await expect(row.getByTestId('account-channel')).toHaveText(
    adminText('en', 'accounts.channels.whatsapp'),
  );
  return verifyToken;
}

test('a WhatsApp number is bound, a customer writes, the operator answers translated with an image, and the ticks go to read', async ({
  page,
  server,
  graph,
}) => {
  const digits = () => String(randomBytes(4).readUInt32BE()).padStart(10, '0').slice(0, 8);
  const seat = { account: `wa_${digits()}`, password: `pw-${randomBytes(6).toString('hex')}` };
  const phone = `+1555${digits()}`;
  await server.cli('seat:create', seat.account, '--password', seat.password);
  await server.cli('account:add', phone);
  await server.cli('account:assign', phone, seat.account);
  const n = graph.addNumber({ verifiedName: 'Azulejos Lisboa', qualityRating: 'GREEN' });

  const verifyToken = await bindInConsole(page, phone, n);
  const hook = `${server.url}/v1/whatsapp/webhook/${n.phoneNumberId}`;
  // Meta verifies the callback URL with the verify token shown.
  const verified = await fetch(
    `${hook}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(verifyToken)}&hub.challenge=8675309`,
  );
  expect(await verified.text()).toBe('8675309');

  // A customer writes in Spanish: Meta posts the signed webhook.
  const waId = `3491${digits()}`;
  const wamid = `wamid.e2e-${digits()}`;
  const delivered = await postWebhook(
    hook,
    n.appSecret,
    graph.inbound(
      n,
      { wa_id: waId, name: 'Lucía Gómez' },
      { type: 'text', text: { body: 'Buenos días' } },
      wamid,
    ),
  );
  expect(delivered.status).toBe(200);
  const token = await seatToken(server.url, { ...seat, nickname: '', phone });
  const chat = await findSession(server.url, token, `+${waId}`);
  expect(chat.customer_name).toBe('Lucía Gómez');

  await storeTranslation(page);
  await signIn(page, seat.account, seat.password);
  await openChat(page, chat.session_id);
  await expect(bubble(page, 'Buenos días')).toBeVisible();
  // The chat says until when free-form replies are accepted (24 hours after the customer wrote).
  await expect(page.getByTestId('whatsapp-window')).toHaveAttribute('data-open', 'true');
  // Opening the chat marked the customer's message read on WhatsApp (their blue ticks).
  await expect.poll(() => graph.readMarks.includes(wamid)).toBe(true);

  // A reply in English goes out in Spanish.
  await page.getByTestId('composer-translate-toggle').click();
  await page.getByTestId('composer-input').fill('The house is big');
  await expect(page.getByTestId('composer-translation-preview')).toHaveText('La casa es grande');
  await page.getByTestId('composer-input').press('Enter');
  const reply = bubble(page, 'La casa es grande');
  await expect(reply).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });

  // An image: uploaded with /{id}/media, then sent by its id.
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('composer-attach').click();
  await (await chooser).setFiles(path.join(REPO_ROOT, 'e2e/fixtures/media/photo.png'));
  const image = page.locator('[data-testid="message-item"][data-type="image"]');
  await expect(image).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });

  // The bubble's "sent" is the server's; the outbox delivers to WhatsApp right after.
  await expect
    .poll(() => graph.sentTo(n.phoneNumberId, waId).map((s) => s.type))
    .toEqual(['text', 'image']);
  const sent = graph.sentTo(n.phoneNumberId, waId);
  expect(sent[0]!.body.text).toMatchObject({ body: 'La casa es grande' });
  const imageId = (sent[1]!.body.image as { id: string }).id;
  expect(graph.media.get(imageId)?.mime).toBe('image/png');

  // The customer's phone reports delivery, then reading: the ticks follow.
  for (const status of ['delivered', 'read'] as const) {
    for (const s of sent) {
      expect(
        (await postWebhook(hook, n.appSecret, graph.status(n, s.wamid, waId, status))).status,
      ).toBe(200);
    }
    await expect(reply).toHaveAttribute('data-status', status);
    await expect(image).toHaveAttribute('data-status', status);
  }

  // WhatsApp cannot delete a message for everyone: only "for me" is offered, and said why.
  await reply.click({ button: 'right' });
  await page.getByTestId('message-context-menu').getByTestId('message-action-delete').click();
  const dialog = page.getByTestId('delete-message-dialog');
  await expect(dialog.getByTestId('delete-scope-me')).toBeChecked();
  await expect(dialog.getByTestId('delete-scope-all')).toHaveCount(0);
  await expect(dialog.getByTestId('delete-all-impossible')).toBeVisible();
  await dialog.getByTestId('confirm-cancel').click();
});

test("a customer's reaction shows on the bubble as it comes; a revoked token shows on the account in the admin console", async ({
  page,
  server,
  graph,
}) => {
  const digits = () => String(randomBytes(4).readUInt32BE()).padStart(10, '0').slice(0, 8);
  const seat = { account: `wr_${digits()}`, password: `pw-${randomBytes(6).toString('hex')}` };
  const phone = `+1556${digits()}`;
  await server.cli('seat:create', seat.account, '--password', seat.password);
  await server.cli('account:add', phone);
  await server.cli('account:assign', phone, seat.account);
  const n = graph.addNumber({ verifiedName: 'Azulejos Porto' });
  await bindInConsole(page, phone, n);
  const hook = `${server.url}/v1/whatsapp/webhook/${n.phoneNumberId}`;
  const row = await accountRow(page, phone);
  await expect(row.getByTestId('whatsapp-state')).toHaveAttribute('data-state', 'ok');

  const waId = `3492${digits()}`;
  const wamid = `wamid.react-${digits()}`;
  const customer = { wa_id: waId, name: 'Inês' };
  expect(
    (
      await postWebhook(
        hook,
        n.appSecret,
        graph.inbound(n, customer, { type: 'text', text: { body: 'Tem em azul?' } }, wamid),
      )
    ).status,
  ).toBe(200);
  const token = await seatToken(server.url, { ...seat, nickname: '', phone });
  const chat = await findSession(server.url, token, `+${waId}`);
  await signIn(page, seat.account, seat.password);
  await openChat(page, chat.session_id);
  const message = bubble(page, 'Tem em azul?');
  await expect(message).toBeVisible();
  await expect(message.getByTestId('message-reaction')).toHaveCount(0);

  // The customer reacts on their phone: the open console shows it at once (pushed).
  const react = (emoji: string) =>
    postWebhook(
      hook,
      n.appSecret,
      graph.inbound(n, customer, { type: 'reaction', reaction: { message_id: wamid, emoji } }),
    );
  expect((await react('❤️')).status).toBe(200);
  const reaction = message.getByTestId('message-reaction');
  await expect(reaction).toHaveText('❤️');
  const label = localeStrings('en').get('chat.reaction')!.replace('{{emoji}}', '❤️');
  await expect(reaction).toHaveAttribute('aria-label', label);
  await expect(page.getByRole('img', { name: label })).toBeVisible();
  // Taken back: gone from the bubble.
  expect((await react('')).status).toBe(200);
  await expect(message.getByTestId('message-reaction')).toHaveCount(0);

  // The token is revoked at Meta: the operator's next message fails, and the account shows why.
  graph.revokeToken(n.token);
  await page.getByTestId('composer-input').fill('Temos, sim');
  await page.getByTestId('composer-input').press('Enter');
  await expect(bubble(page, 'Temos, sim')).toHaveAttribute('data-status', 'failed', {
    timeout: 30_000,
  });
  // Still signed in to the admin console in this browser.
  await page.goto('/admin/accounts');
  await expect(page.getByTestId('admin-shell')).toBeVisible();
  const revoked = await accountRow(page, phone);
  const state = revoked.getByTestId('whatsapp-state');
  await expect(state).toHaveAttribute('data-state', 'token_invalid');
  await expect(state).toHaveText(adminText('en', 'accounts.whatsapp.states.token_invalid'));
  await expect(state).toHaveAttribute('title', /190/);
  // Its dialog says the same, with the Graph API's error.
  await revoked.getByTestId('account-channel-open').click();
  const dialog = page.getByTestId('account-channel-dialog');
  await expect(dialog.getByTestId('whatsapp-state')).toHaveAttribute('data-state', 'token_invalid');
  await expect(dialog.getByTestId('whatsapp-error')).toContainText('190');
  await expect(dialog).not.toContainText(n.token);
});
