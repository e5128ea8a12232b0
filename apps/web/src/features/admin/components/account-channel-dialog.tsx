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
import {
  EMPTY_WHATSAPP,
  missingWhatsappField,
  WhatsappFields,
  type WhatsappForm,
} from './whatsapp-fields';
import { WhatsappStatusPanel } from './whatsapp-status';

type SetChannel =
  | { channel: PlainChannelName }
  | { channel: 'telegram'; bot_token: string }
  | ({ channel: 'whatsapp' } & WhatsappForm);

/**
 * The account's channel: the platform, the sandbox, a Telegram bot (bound with its token, its
 * long-poll state and last error shown) or a WhatsApp Business number (bound with its IDs,
 * token and app secret; the webhook URL and verify token for Meta shown once bound); unbound
 * by choosing another channel.
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
  const [wa, setWa] = useState<WhatsappForm>(EMPTY_WHATSAPP);
  const [waMissing, setWaMissing] = useState<keyof WhatsappForm | null>(null);
  /** Bound in this dialog: it stays open on the webhook settings to paste into Meta's. */
  const [waJustBound, setWaJustBound] = useState(false);
  const channel = choice ?? account?.channel ?? 'platform';
  const waStatus = useQuery({
    queryKey: ['admin', 'accounts', 'whatsapp', account?.account_id],
    queryFn: ({ signal }) =>
      callAdmin(
        '/v1/admin/accounts/whatsappStatus',
        { account_id: account?.account_id ?? 0 },
        { signal },
      ),
    enabled: account?.channel === 'whatsapp' || waJustBound,
    refetchInterval: 10_000,
  });
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
    setWa(EMPTY_WHATSAPP);
    setWaMissing(null);
    setWaJustBound(false);
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
    if (channel === 'whatsapp') {
      const missing = missingWhatsappField(wa);
      setWaMissing(missing);
      if (missing) return;
      const trimmed = {
        phone_number_id: wa.phone_number_id.trim(),
        waba_id: wa.waba_id.trim(),
        access_token: wa.access_token.trim(),
        app_secret: wa.app_secret.trim(),
      };
      if (await action.submit(account.account_id, { channel, ...trimmed })) {
        // The owner still has to paste the webhook URL and verify token into Meta's settings.
        setWa(EMPTY_WHATSAPP);
        setChoice(null);
        setWaJustBound(true);
        await waStatus.refetch();
      }
      return;
    }
    const set: SetChannel =
      channel === 'telegram' ? { channel, bot_token: botToken.trim() } : { channel };
    if (await action.submit(account.account_id, set)) close();
  };
  const tokenRefused = action.error?.fields.includes('bot_token');
  const waErrors: Partial<Record<keyof WhatsappForm, string>> = {};
  if (waMissing) waErrors[waMissing] = t('accounts.whatsapp.required');
  for (const f of action.error?.fields ?? []) {
    if (f in EMPTY_WHATSAPP)
      waErrors[f as keyof WhatsappForm] = t('accounts.whatsapp.refused', {
        reason: action.error?.message ?? '',
      });
  }
  const waRefused = Object.keys(waErrors).length > 0 && !waMissing;
  const waBound = account?.channel === 'whatsapp' || waJustBound;
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
          {waBound && (
            <>
              {waStatus.isPending ? <Loader size="sm" aria-label={t('loading')} /> : null}
              {waStatus.data ? <WhatsappStatusPanel status={waStatus.data} /> : null}
              {waStatus.data === null && (
                <Alert color="yellow">{t('accounts.whatsapp.none')}</Alert>
              )}
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
          {channel === 'whatsapp' && (
            <WhatsappFields value={wa} onChange={setWa} errors={waErrors} />
          )}
          {waBound && channel !== 'whatsapp' && (
            <Text size="sm" c="orange" data-testid="account-channel-unbind-note">
              {t('accounts.whatsapp.unbindNote')}
            </Text>
          )}
          {bound && channel !== 'telegram' && (
            <Text size="sm" c="orange" data-testid="account-channel-unbind-note">
              {t('accounts.channel.unbindNote')}
            </Text>
          )}
          {!tokenRefused && !waRefused && <ActionAlert error={action.error} />}
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
                  : channel === 'whatsapp'
                    ? t('accounts.whatsapp.bind')
                    : t('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
