import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { NO_ACCOUNT_CHANNEL_FIELDS, type AdminPhoneAccount } from '@parley/protocol';
import { loadStrings, renderWithProviders } from '../../test/render';
import { answerCalls, sentCalls } from '../../test/server-calls';
import { channelView } from '../channels';
import { AccountChannelDialog } from '../../features/admin/components/account-channel-dialog';

/**
 * The account's channel dialog, by what the owner sees and what is submitted only (labels,
 * roles, the call sent): its inner parts are free to change (one folder per channel).
 */
const ACCOUNT: AdminPhoneAccount = {
  account_id: 12,
  send_phone: '+15550100',
  label: 'Shop',
  channel: 'platform',
  seat_id: null,
  seat_account: null,
  chats: 0,
  ...NO_ACCOUNT_CHANNEL_FIELDS,
  created_at: 1_700_000_000_000,
};
const SET = '/v1/admin/accounts/setChannel';

beforeAll(loadStrings);

function open(account: AdminPhoneAccount = ACCOUNT) {
  const onClose = vi.fn();
  renderWithProviders(
    <AccountChannelDialog account={account} onClose={onClose} channelView={channelView} />,
  );
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Channel' }) };
}

describe("the account's channel dialog", () => {
  it('shows the number and its channel chosen among the four', () => {
    open();
    expect(screen.getByText('+15550100')).toBeTruthy();
    const choices = screen.getAllByRole('radio').map((r) => r.getAttribute('value'));
    expect(choices).toEqual(['platform', 'sandbox', 'telegram', 'whatsapp']);
    expect((screen.getByRole('radio', { name: 'Platform' }) as HTMLInputElement).checked).toBe(
      true,
    );
  });

  it('binds a Telegram bot with its token, trimmed, and closes', async () => {
    answerCalls({ [SET]: (body) => ({ data: { ...ACCOUNT, channel: body.channel } }) });
    const { onClose } = open();
    await userEvent.click(screen.getByRole('radio', { name: 'Telegram bot' }));
    await userEvent.type(await screen.findByLabelText('Bot token'), '  123:abc  ');
    await userEvent.click(screen.getByRole('button', { name: 'Bind bot' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sentCalls(SET).map((c) => c.body)).toEqual([
      { account_id: 12, channel: 'telegram', bot_token: '123:abc' },
    ]);
  });

  it('asks for the token before sending anything', async () => {
    const { onClose } = open();
    await userEvent.click(screen.getByRole('radio', { name: 'Telegram bot' }));
    // Each channel's fields come with its own code: the owner sees them before binding.
    await screen.findByLabelText('Bot token');
    await userEvent.click(screen.getByRole('button', { name: 'Bind bot' }));
    expect(await screen.findByText("Enter the bot's token")).toBeTruthy();
    expect(sentCalls()).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("shows Telegram's refusal of the token at the field and stays open", async () => {
    answerCalls({
      [SET]: {
        code: '100001',
        msg: 'Parameter error: bot_token',
        data: { fields: [{ path: 'bot_token', message: 'refused by Telegram' }] },
      },
    });
    const { onClose } = open();
    await userEvent.click(screen.getByRole('radio', { name: 'Telegram bot' }));
    await userEvent.type(await screen.findByLabelText('Bot token'), 'bad-token');
    await userEvent.click(screen.getByRole('button', { name: 'Bind bot' }));
    expect(await screen.findByText('Telegram refused this token')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('binds a WhatsApp number only with all four fields', async () => {
    answerCalls({
      [SET]: (body) => ({ data: { ...ACCOUNT, channel: body.channel } }),
      '/v1/admin/accounts/whatsappStatus': { data: null },
    });
    open();
    await userEvent.click(screen.getByRole('radio', { name: 'WhatsApp Business' }));
    const bind = screen.getByRole('button', { name: 'Check and bind number' });
    await userEvent.type(await screen.findByLabelText('Phone number ID'), '1098765');
    await userEvent.click(bind);
    expect((await screen.findAllByText('Required')).length).toBeGreaterThan(0);
    expect(sentCalls(SET)).toEqual([]);

    await userEvent.type(screen.getByLabelText('WhatsApp Business Account ID'), '2034567');
    await userEvent.type(screen.getByLabelText(/^Access token/), 'EAAG-token');
    await userEvent.type(screen.getByLabelText(/^App secret/), '0123456789abcdef0123456789ABCDEF');
    await userEvent.click(bind);
    await waitFor(() => expect(sentCalls(SET)).toHaveLength(1));
    expect(sentCalls(SET)[0]!.body).toEqual({
      account_id: 12,
      channel: 'whatsapp',
      phone_number_id: '1098765',
      waba_id: '2034567',
      access_token: 'EAAG-token',
      app_secret: '0123456789abcdef0123456789ABCDEF',
    });
  });

  it('switches a bound bot back to the platform with a warning that the bot is unbound', async () => {
    answerCalls({
      [SET]: (body) => ({ data: { ...ACCOUNT, channel: body.channel } }),
      '/v1/admin/accounts/telegramStatus': { data: null },
    });
    const { onClose } = open({ ...ACCOUNT, channel: 'telegram' });
    await userEvent.click(screen.getByRole('radio', { name: 'Platform' }));
    expect(await screen.findByText('The bot is unbound; the chats stay.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Unbind bot and switch' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sentCalls(SET).map((c) => c.body)).toEqual([{ account_id: 12, channel: 'platform' }]);
  });
});
