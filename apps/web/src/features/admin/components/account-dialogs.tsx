import { useState, type FormEvent } from 'react';
import { notifications } from '@mantine/notifications';
import { Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_CHANNEL,
  ERROR_CODES,
  PLAIN_CHANNEL_NAMES,
  accountLabel,
  phone,
  type AdminPhoneAccount,
  type PlainChannelName,
} from '@parley/protocol';
import { callAdmin } from '../api/admin-client';
import { useAdminAction } from '../hooks/use-admin-action';
import { ActionAlert } from './action-alert';
import { DialogButtons, TextFieldDialog } from './dialog-parts';
import { SeatPicker } from './seat-picker';

/** A new phone account (platform or sandbox; a Telegram bot is bound afterwards), maybe assigned at once. */
export function AccountCreateDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [sendPhone, setSendPhone] = useState('');
  const [label, setLabel] = useState('');
  const [channel, setChannel] = useState<PlainChannelName>(DEFAULT_CHANNEL);
  const [seatId, setSeatId] = useState<number | null>(null);
  const [invalid, setInvalid] = useState<{ phone?: string; label?: string }>({});
  const action = useAdminAction(
    () =>
      callAdmin(
        '/v1/admin/accounts/create',
        {
          send_phone: sendPhone.trim(),
          label: label.trim(),
          channel,
          seat_id: seatId ?? undefined,
        },
        { notify: false },
      ),
    ['accounts', 'seats', 'audit'],
  );
  const close = () => {
    setSendPhone('');
    setLabel('');
    setChannel(DEFAULT_CHANNEL);
    setSeatId(null);
    setInvalid({});
    action.clearError();
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = {
      phone: phone.safeParse(sendPhone.trim()).success ? undefined : t('accounts.invalid.phone'),
      label: accountLabel.safeParse(label).success ? undefined : t('accounts.invalid.label'),
    };
    setInvalid(found);
    if (found.phone || found.label) return;
    if (await action.submit()) close();
  };
  const phoneError = [ERROR_CODES.DATA_EXISTS, ERROR_CODES.INVALID_PHONE_FORMAT].includes(
    action.error?.code as never,
  );
  return (
    <Modal opened={opened} onClose={close} title={t('accounts.create.title')} centered>
      <form onSubmit={submit} noValidate data-testid="account-create-dialog">
        <Stack>
          <TextInput
            label={t('accounts.fields.phone')}
            description={t('accounts.fields.phoneHint')}
            value={sendPhone}
            onChange={(e) => setSendPhone(e.currentTarget.value)}
            error={invalid.phone ?? (phoneError ? action.error?.message : undefined)}
            data-testid="account-create-phone"
            data-autofocus
            required
          />
          <TextInput
            label={t('accounts.fields.label')}
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            error={invalid.label}
            data-testid="account-create-label"
          />
          <div>
            <Text size="sm" fw={500} id="account-create-channel-label" mb={4}>
              {t('accounts.fields.channel')}
            </Text>
            <SegmentedControl
              value={channel}
              onChange={(v) => setChannel(v as PlainChannelName)}
              aria-labelledby="account-create-channel-label"
              data={PLAIN_CHANNEL_NAMES.map((c) => ({
                value: c,
                label: t(`accounts.channels.${c}`),
              }))}
              data-testid="account-create-channel"
            />
          </div>
          <SeatPicker
            label={t('accounts.fields.seatOptional')}
            value={seatId}
            onChange={setSeatId}
            testId="account-create-seat"
          />
          {!phoneError && <ActionAlert error={action.error} />}
          <DialogButtons busy={action.busy} onClose={close} testId="account-create-submit" />
        </Stack>
      </form>
    </Modal>
  );
}

/** The account's label (what the administrator calls it). */
export function AccountLabelDialog({
  account,
  onClose,
}: {
  account: AdminPhoneAccount | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const action = useAdminAction(
    (label: string) =>
      callAdmin(
        '/v1/admin/accounts/update',
        { account_id: account!.account_id, label },
        { notify: false },
      ),
    ['accounts', 'audit'],
  );
  return (
    <TextFieldDialog
      opened={account !== null}
      title={t('accounts.label.title')}
      subject={account?.send_phone}
      label={t('accounts.fields.label')}
      initial={account?.label ?? ''}
      isValid={(value) => accountLabel.safeParse(value).success}
      invalidMessage={t('accounts.invalid.label')}
      action={action}
      testId="account-label"
      onClose={onClose}
    />
  );
}

/** Assigns the account to a seat, or moves it (with its chats) to another. */
export function AccountAssignDialog({
  account,
  onClose,
}: {
  account: AdminPhoneAccount | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const [seatId, setSeatId] = useState<number | null>(null);
  const [invalid, setInvalid] = useState<string>();
  const action = useAdminAction(
    (accountId: number, seat: number) =>
      callAdmin(
        '/v1/admin/accounts/assign',
        { account_id: accountId, seat_id: seat },
        { notify: false },
      ),
    ['accounts', 'seats', 'audit'],
  );
  const close = () => {
    setSeatId(null);
    setInvalid(undefined);
    action.clearError();
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!account) return;
    if (seatId === null) return setInvalid(t('accounts.invalid.seat'));
    const result = await action.submit(account.account_id, seatId);
    if (!result) return;
    notifications.show({
      color: 'teal',
      message: t('accounts.assign.done', {
        phone: result.account.send_phone,
        seat: result.account.seat_account ?? '',
        count: result.moved_chats,
      }),
    });
    close();
  };
  const moving = account?.seat_id != null;
  return (
    <Modal
      opened={account !== null}
      onClose={close}
      title={t(moving ? 'accounts.assign.moveTitle' : 'accounts.assign.title')}
      centered
    >
      <form onSubmit={submit} noValidate data-testid="account-assign-dialog">
        <Stack>
          <Text size="sm">
            {moving
              ? t('accounts.assign.moveText', {
                  phone: account?.send_phone ?? '',
                  seat: account?.seat_account ?? '',
                })
              : t('accounts.assign.text', { phone: account?.send_phone ?? '' })}
          </Text>
          <SeatPicker
            label={t('accounts.fields.seat')}
            value={seatId}
            onChange={(v) => {
              setSeatId(v);
              setInvalid(undefined);
            }}
            error={invalid}
            exclude={account?.seat_id}
            testId="account-assign-seat"
          />
          <ActionAlert error={action.error} />
          <DialogButtons
            busy={action.busy}
            onClose={close}
            testId="account-assign-submit"
            label={t(moving ? 'accounts.assign.move' : 'accounts.assign.submit')}
          />
        </Stack>
      </form>
    </Modal>
  );
}
