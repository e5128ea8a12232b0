import { randomBytes } from 'node:crypto';
import { test as base, expect } from '../support/fixtures';
import { startServer, type ParleyServer } from '../support/server';
import { DEMO_ADMIN } from '../support/admin';
import { signIn } from '../support/app';
import { bubble, findSession, openChat, seatToken } from '../support/chats';
// The server tests' local Graph API: an HTTP server following Meta's WhatsApp Cloud API
// reference (Graph API v21.0), with signed webhooks and template sends checked as Meta does.
import {
  GRAPH_ERRORS,
  postWebhook,
  WhatsAppGraphServer,
  type GraphNumber,
} from '../../apps/server/test/whatsapp-graph-api-server';

/**
 * Issue 27, templates: past a WhatsApp chat's 24-hour window the composer becomes a template
 * picker; the operator fills the variables (header, body, a URL button's suffix), sees the
 * preview and sends; the local Graph API receives the template with its components and the
 * message shows as sent. A reply WhatsApp refuses for the window (131047) shows why. A new
 * chat's greeting is a template chosen in the add-chat dialog.
 */
const test = base.extend<{ graph: WhatsAppGraphServer; server: ParleyServer }>({
  // eslint-disable-next-line no-empty-pattern
  graph: async ({}, use) => {
    const graph = await new WhatsAppGraphServer().start();
    await use(graph);
    await graph.stop();
  },
  server: async ({ graph }, use) => {
    const server = await startServer({ PARLEY_WHATSAPP_GRAPH_URL: graph.url });
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

async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { code: string; data: unknown };
  expect(answer.code, JSON.stringify(answer)).toBe('000000');
  return answer.data;
}

/** Binds the account to the number through the admin console's calls (whatsapp.spec.ts clicks it). */
async function bind(server: ParleyServer, phone: string, n: GraphNumber) {
  const { token } = (await post(`${server.url}/v1/admin/login`, DEMO_ADMIN)) as { token: string };
  const accounts = (await post(
    `${server.url}/v1/admin/accounts/list`,
    { keyword: phone.slice(1) },
    token,
  )) as { list: Array<{ account_id: number; send_phone: string }> };
  const account = accounts.list.find((a) => a.send_phone === phone)!;
  await post(
    `${server.url}/v1/admin/accounts/setChannel`,
    {
      account_id: account.account_id,
      channel: 'whatsapp',
      phone_number_id: n.phoneNumberId,
      waba_id: n.wabaId,
      access_token: n.token,
      app_secret: n.appSecret,
    },
    token,
  );
}

test('past the window the operator sends a template with its variables; a 131047 refusal says why; a new chat greets with a template', async ({
  page,
  server,
  graph,
}) => {
  const digits = () => String(randomBytes(4).readUInt32BE()).padStart(10, '0').slice(0, 8);
  const seat = { account: `wt_${digits()}`, password: `pw-${randomBytes(6).toString('hex')}` };
  const phone = `+1555${digits()}`;
  await server.cli('seat:create', seat.account, '--password', seat.password);
  await server.cli('account:add', phone);
  await server.cli('account:assign', phone, seat.account);
  const n = graph.addNumber({ verifiedName: 'Azulejos Lisboa' });
  graph.addTemplate(n.wabaId, {
    name: 'order_update',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Hello {{1}}, your order {{2}} is ready.' },
      {
        type: 'BUTTONS',
        buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}' }],
      },
    ],
  });
  graph.addTemplate(n.wabaId, {
    name: 'welcome',
    language: 'pt_PT',
    status: 'APPROVED',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Olá {{1}}, aqui é a Azulejos Lisboa.' }],
  });
  await bind(server, phone, n);
  const hook = `${server.url}/v1/whatsapp/webhook/${n.phoneNumberId}`;

  // One customer wrote a day and an hour ago (the window has closed), another an hour ago.
  const late = `3491${digits()}`;
  const recent = `3492${digits()}`;
  for (const [waId, name, hoursAgo] of [
    [late, 'Ana Lopes', 25],
    [recent, 'Rui Costa', 1],
  ] as const) {
    const timestamp = String(Math.floor((Date.now() - hoursAgo * 3600_000) / 1000));
    const res = await postWebhook(
      hook,
      n.appSecret,
      graph.inbound(n, { wa_id: waId, name }, { type: 'text', text: { body: 'Olá' }, timestamp }),
    );
    expect(res.status).toBe(200);
  }
  const token = await seatToken(server.url, { ...seat, nickname: '', phone });
  const lateChat = await findSession(server.url, token, `+${late}`);
  const recentChat = await findSession(server.url, token, `+${recent}`);

  await signIn(page, seat.account, seat.password);
  // Its last message is over a day old: the chat is under the older time tab.
  await page.getByTestId('time-tab-2').click();
  await openChat(page, lateChat.session_id);
  await expect(page.getByTestId('whatsapp-window')).toHaveAttribute('data-open', 'false');
  // No free text past the window: the template picker takes the composer's place.
  const picker = page.getByTestId('template-composer');
  await expect(picker).toBeVisible();
  await expect(page.getByTestId('composer-input')).toHaveCount(0);
  await expect(picker.getByTestId('template-send')).toBeDisabled();

  await picker.getByTestId('template-select').click();
  await page.getByRole('option', { name: 'order_update (en_US)' }).click();
  await picker.getByTestId('template-var-header-0').fill('A-1027');
  await picker.getByTestId('template-var-body-0').fill('Ana');
  await expect(picker.getByTestId('template-send')).toBeDisabled();
  await picker.getByTestId('template-var-body-1').fill('A-1027');
  await picker.getByTestId('template-var-button-0').fill('A-1027');
  const preview = picker.getByTestId('template-preview');
  await expect(preview).toContainText('Order A-1027');
  await expect(preview).toContainText('Hello Ana, your order A-1027 is ready.');
  await picker.getByTestId('template-send').click();

  // The local Graph API received the template with every variable.
  await expect
    .poll(() => graph.sentTo(n.phoneNumberId, late).map((s) => s.type))
    .toEqual(['template']);
  expect(graph.sentTo(n.phoneNumberId, late)[0]!.body.template).toEqual({
    name: 'order_update',
    language: { code: 'en_US' },
    components: [
      { type: 'header', parameters: [{ type: 'text', text: 'A-1027' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ana' },
          { type: 'text', text: 'A-1027' },
        ],
      },
      {
        type: 'button',
        sub_type: 'url',
        index: '0',
        parameters: [{ type: 'text', text: 'A-1027' }],
      },
    ],
  });
  // The chat shows what the customer got, as sent.
  const sent = page
    .getByTestId('message-item')
    .filter({ hasText: 'Hello Ana, your order A-1027 is ready.' });
  await expect(sent).toHaveAttribute('data-status', 'sent');
  await expect(sent).toContainText('https://shop.example/t/A-1027');

  // Inside the window the composer is as usual; WhatsApp refusing the reply for the window
  // (its clock says the window closed) shows the translated reason on the message.
  await page.getByTestId('time-tab-1').click();
  await openChat(page, recentChat.session_id);
  await expect(page.getByTestId('whatsapp-window')).toHaveAttribute('data-open', 'true');
  await expect(page.getByTestId('template-composer')).toHaveCount(0);
  graph.failNextSends(n.phoneNumberId, GRAPH_ERRORS.reEngagement);
  await page.getByTestId('composer-input').fill('Are you still there?');
  await page.getByTestId('composer-input').press('Enter');
  const refused = bubble(page, 'Are you still there?');
  await expect(refused).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  await expect(refused.getByTestId('message-fail-reason')).toHaveText(
    "Outside WhatsApp's 24-hour window: send a template",
  );

  // A new customer: the add-chat dialog greets with a template (WhatsApp takes nothing else).
  const fresh = `3493${digits()}`;
  await page.getByTestId('add-chat-open').click();
  const dialog = page.getByTestId('add-chat-dialog');
  await dialog.getByTestId('add-chat-number').fill(`+${fresh}`);
  await expect(dialog.getByTestId('add-chat-greeting')).toHaveCount(0);
  const greeting = dialog.getByTestId('add-chat-template');
  await greeting.getByTestId('template-select').click();
  await page.getByRole('option', { name: 'welcome (pt_PT)' }).click();
  await greeting.getByTestId('template-var-body-0').fill('Marta');
  await expect(greeting.getByTestId('template-preview')).toHaveText(
    'Olá Marta, aqui é a Azulejos Lisboa.',
  );
  await dialog.getByTestId('add-chat-submit').click();
  await expect(dialog).toHaveCount(0);
  await expect(bubble(page, 'Olá Marta, aqui é a Azulejos Lisboa.')).toBeVisible();
  await expect
    .poll(() => graph.sentTo(n.phoneNumberId, fresh).map((x) => x.body.template))
    .toEqual([
      {
        name: 'welcome',
        language: { code: 'pt_PT' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Marta' }] }],
      },
    ]);
});
