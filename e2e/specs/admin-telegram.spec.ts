import { randomBytes } from 'node:crypto';
import { test as base, expect } from '../support/fixtures';
import { startServer, type ParleyServer } from '../support/server';
import { accountRow, adminLogin, adminSection, adminText } from '../support/admin';
// The server tests' local Bot API: an HTTP server following Telegram's published methods.
import { TelegramBotApiServer } from '../../apps/server/test/telegram-bot-api-server';

/**
 * Issue 12: a phone account's channel from the admin console: a Telegram bot bound with its
 * token (checked with Telegram first), the long poll's state and last error, and unbinding.
 * This file's server talks to a local Bot API instead of api.telegram.org.
 */
const test = base.extend<{ tg: TelegramBotApiServer; server: ParleyServer }>({
  // eslint-disable-next-line no-empty-pattern
  tg: async ({}, use) => {
    const tg = await new TelegramBotApiServer().start();
    await use(tg);
    await tg.stop();
  },
  server: async ({ tg }, use) => {
    const server = await startServer({
      PARLEY_TELEGRAM_API_URL: tg.url,
      PARLEY_TELEGRAM_POLL_TIMEOUT_SECONDS: '1',
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

test('a Telegram bot is bound to an account, its long poll watched, then unbound', async ({
  page,
  tg,
}) => {
  const phone = `+1555${String(randomBytes(4).readUInt32BE()).padStart(10, '0').slice(0, 8)}`;
  const botToken = tg.createBot('parley_admin_e2e_bot');
  await adminLogin(page);
  await adminSection(page, 'accounts');
  await page.getByTestId('account-create-open').click();
  await page.getByTestId('account-create-phone').fill(phone);
  await page.getByTestId('account-create-submit').click();
  await expect(page.getByTestId('account-create-dialog')).toBeHidden();
  const row = await accountRow(page, phone);
  await expect(row.getByTestId('account-channel')).toHaveText(
    adminText('en', 'accounts.channels.platform'),
  );

  // A token Telegram does not know is refused by its field; nothing is bound.
  await row.getByTestId('account-channel-open').click();
  const dialog = page.getByTestId('account-channel-dialog');
  await dialog
    .getByTestId('account-channel-choice')
    .getByText(adminText('en', 'accounts.channels.telegram'), { exact: true })
    .click();
  await dialog.getByTestId('account-channel-token').fill('123:not-a-bot');
  await dialog.getByTestId('account-channel-submit').click();
  await expect(dialog.getByText(adminText('en', 'accounts.channel.tokenRefused'))).toBeVisible();
  await dialog.getByTestId('account-channel-token').fill(botToken);
  await dialog.getByTestId('account-channel-submit').click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('account-channel')).toHaveText(
    adminText('en', 'accounts.channels.telegram'),
  );
  // The long poll starts: the dialog says so (it re-reads the state while open), then the row.
  await row.getByTestId('account-channel-open').click();
  const status = dialog.getByTestId('telegram-status');
  await expect(status).toContainText('@parley_admin_e2e_bot');
  // The token is never shown whole once stored.
  await expect(status).not.toContainText(botToken);
  await expect(status.getByTestId('telegram-state')).toHaveAttribute('data-state', 'polling', {
    timeout: 25_000,
  });
  await expect(row.getByTestId('telegram-state')).toHaveAttribute('data-state', 'polling', {
    timeout: 25_000,
  });

  // Telegram fails a poll: the dialog shows the error (it refreshes while open).
  tg.failNext('getUpdates', { error_code: 502, description: 'Bad Gateway' });
  await expect(status.getByTestId('telegram-error')).toContainText('502 Bad Gateway', {
    timeout: 25_000,
  });

  // Unbinding: back to the platform, the bot no longer polled for this account.
  await dialog
    .getByTestId('account-channel-choice')
    .getByText(adminText('en', 'accounts.channels.platform'), { exact: true })
    .click();
  await expect(dialog.getByTestId('account-channel-unbind-note')).toBeVisible();
  await dialog.getByTestId('account-channel-submit').click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('account-channel')).toHaveText(
    adminText('en', 'accounts.channels.platform'),
  );
  await expect(row.getByTestId('telegram-state')).toHaveCount(0);

  // Both changes are audited; the token is in neither.
  await adminSection(page, 'audit');
  await page.getByTestId('audit-filter-target').click();
  await page.getByRole('option', { name: adminText('en', 'audit.targets.account') }).click();
  const changes = page
    .getByTestId('audit-table')
    .locator('tbody tr')
    .filter({ has: page.locator('[data-action="account.set_channel"]') })
    .filter({ hasText: phone });
  await expect(changes).toHaveCount(2);
  await expect(changes.first()).not.toContainText(botToken);
});
