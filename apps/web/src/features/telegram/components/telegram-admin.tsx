import { useImperativeHandle, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Loader, PasswordInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AdminPhoneAccount } from '@parley/protocol';
import type { AdminCaller, CredentialsProps } from '../../../lib/channel-view';
import { PollBadge, TelegramStatusPanel } from './telegram-status';

/** The account list's badge: the bot's long-poll state. */
export function TelegramStatusBadge({ account }: { account: AdminPhoneAccount }) {
  return account.telegram ? <PollBadge status={account.telegram} /> : null;
}

/** The bound bot's poll state and last error, re-read while the dialog is open. */
export function TelegramBoundPanel({
  account,
  callAdmin,
}: {
  account: AdminPhoneAccount;
  callAdmin: AdminCaller;
}) {
  const { t } = useTranslation('admin');
  const status = useQuery({
    queryKey: ['admin', 'accounts', 'telegram', account.account_id],
    queryFn: ({ signal }) =>
      callAdmin(
        '/v1/admin/accounts/telegramStatus',
        { account_id: account.account_id },
        { signal },
      ),
    refetchInterval: 10_000,
  });
  return (
    <>
      {status.isPending ? <Loader size="sm" aria-label={t('loading')} /> : null}
      {status.data ? <TelegramStatusPanel status={status.data} /> : null}
      {status.data === null && <Alert color="yellow">{t('accounts.telegram.none')}</Alert>}
    </>
  );
}

/** The bot's token (checked with Telegram before it is stored; typed, never shown back). */
export function TelegramCredentials({ bound, formRef, refused }: CredentialsProps) {
  const { t } = useTranslation('admin');
  const [botToken, setBotToken] = useState('');
  const [invalid, setInvalid] = useState<string>();
  // The dialog's submit asks the fields of the render it sees.
  useImperativeHandle(formRef, () => ({
    collect: () => {
      if (!botToken.trim()) {
        setInvalid(t('accounts.invalid.botToken'));
        return null;
      }
      setInvalid(undefined);
      return { bot_token: botToken.trim() };
    },
  }));
  const tokenRefused = refused?.fields.includes('bot_token');
  return (
    <PasswordInput
      label={t(bound ? 'accounts.channel.newBotToken' : 'accounts.channel.botToken')}
      description={t('accounts.channel.botTokenHint')}
      value={botToken}
      onChange={(e) => setBotToken(e.currentTarget.value)}
      error={invalid ?? (tokenRefused ? t('accounts.channel.tokenRefused') : undefined)}
      autoComplete="off"
      data-testid="account-channel-token"
    />
  );
}
