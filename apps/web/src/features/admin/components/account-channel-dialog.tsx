import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Divider,
  Group,
  Loader,
  Modal,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  CHANNEL_NAMES,
  type AdminPhoneAccount,
  type ChannelKind,
  type PlainChannelName,
} from '@parley/protocol';
import { callAdmin } from '../api/admin-client';
import { useAdminAction } from '../hooks/use-admin-action';
import { ActionAlert } from './action-alert';
import { TelegramStatusPanel } from './telegram-status';

type SetChannel = { channel: PlainChannelName } | { channel: 'telegram'; bot_token: string };

/**
 * The account's channel: the platform, the sandbox, or a Telegram bot (bound with its token,
 * its long-poll state and last error shown, unbound by choosing another channel).
 */
export function AccountChannelDialog({
  account,
  onClose,
}: {
  account: AdminPhoneAccount | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const [choice, setChoice] = useState<ChannelKind | null>(null);
  const [botToken, setBotToken] = useState('');
  const [invalid, setInvalid] = useState<string>();
  const channel = choice ?? account?.channel ?? 'platform';
  const status = useQuery({
    queryKey: ['admin', 'accounts', 'telegram', account?.account_id],
    queryFn: ({ signal }) =>
      callAdmin(
        '/v1/admin/accounts/telegramStatus',
        { account_id: account?.account_id ?? 0 },
        { signal },
      ),
    enabled: account?.channel === 'telegram',
    refetchInterval: 10_000,
  });
  const action = useAdminAction(
    (accountId: number, set: SetChannel) =>
      callAdmin(
        '/v1/admin/accounts/setChannel',
        { account_id: accountId, ...set },
        { notify: false },
      ),
    ['accounts', 'audit'],
  );
  const close = () => {
    setChoice(null);
    setBotToken('');
    setInvalid(undefined);
    action.clearError();
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!account) return;
    if (channel === 'telegram' && !botToken.trim())
      return setInvalid(t('accounts.invalid.botToken'));
    setInvalid(undefined);
    const set: SetChannel =
      channel === 'telegram' ? { channel, bot_token: botToken.trim() } : { channel };
    if (await action.submit(account.account_id, set)) close();
  };
  const tokenRefused = action.error?.fields.includes('bot_token');
  const bound = account?.channel === 'telegram';
  return (
    <Modal
      opened={account !== null}
      onClose={close}
      title={t('accounts.channel.title')}
      centered
      size="lg"
    >
      <form onSubmit={submit} noValidate data-testid="account-channel-dialog">
        <Stack>
          <Text size="sm" c="dimmed">
            {account?.send_phone}
          </Text>
          {bound && (
            <>
              {status.isPending ? <Loader size="sm" aria-label={t('loading')} /> : null}
              {status.data ? <TelegramStatusPanel status={status.data} /> : null}
              {status.data === null && <Alert color="yellow">{t('accounts.telegram.none')}</Alert>}
              <Divider />
            </>
          )}
          <div>
            <Text size="sm" fw={500} id="account-channel-label" mb={4}>
              {t('accounts.fields.channel')}
            </Text>
            <SegmentedControl
              value={channel}
              onChange={(v) => setChoice(v as ChannelKind)}
              aria-labelledby="account-channel-label"
              data={CHANNEL_NAMES.map((c) => ({
                value: c,
                label: t(`accounts.channels.${c}`),
              }))}
              data-testid="account-channel-choice"
            />
          </div>
          {channel === 'telegram' && (
            <PasswordInput
              label={t(bound ? 'accounts.channel.newBotToken' : 'accounts.channel.botToken')}
              description={t('accounts.channel.botTokenHint')}
              value={botToken}
              onChange={(e) => setBotToken(e.currentTarget.value)}
              error={invalid ?? (tokenRefused ? t('accounts.channel.tokenRefused') : undefined)}
              autoComplete="off"
              data-testid="account-channel-token"
            />
          )}
          {bound && channel !== 'telegram' && (
            <Text size="sm" c="orange" data-testid="account-channel-unbind-note">
              {t('accounts.channel.unbindNote')}
            </Text>
          )}
          {!tokenRefused && <ActionAlert error={action.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('actions.cancel')}
            </Button>
            <Button
              type="submit"
              loading={action.busy}
              data-testid="account-channel-submit"
              color={bound && channel !== 'telegram' ? 'orange' : undefined}
            >
              {bound && channel !== 'telegram'
                ? t('accounts.channel.unbind')
                : channel === 'telegram'
                  ? t('accounts.channel.bind')
                  : t('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
