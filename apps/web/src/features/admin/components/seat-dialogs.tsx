import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  ERROR_CODES,
  PASSWORD_MIN,
  accountName,
  newPassword,
  nickname as nicknameSchema,
  type AdminSeat,
} from '@parley/protocol';
import { callAdmin } from '../api/admin-client';
import { useAdminAction } from '../hooks/use-admin-action';
import { ActionAlert } from './action-alert';
import { DialogButtons, TextFieldDialog } from './dialog-parts';

interface DialogProps {
  opened: boolean;
  onClose: () => void;
}

/** New seat: account name, nickname (default: the account), first password. */
export function SeatCreateDialog({ opened, onClose }: DialogProps) {
  const { t } = useTranslation('admin');
  const [account, setAccount] = useState('');
  const [nick, setNick] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<Record<string, string | undefined>>({});
  const action = useAdminAction(
    () =>
      callAdmin(
        '/v1/admin/seats/create',
        { account: account.trim(), password, nickname: nick.trim() || undefined },
        { notify: false },
      ),
    ['seats', 'audit'],
  );
  const close = () => {
    setAccount('');
    setNick('');
    setPassword('');
    setInvalid({});
    action.clearError();
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = {
      account: accountName.safeParse(account).success ? undefined : t('seats.invalid.account'),
      nickname:
        !nick.trim() || nicknameSchema.safeParse(nick).success
          ? undefined
          : t('seats.invalid.nickname'),
      password: newPassword.safeParse(password).success
        ? undefined
        : t('seats.invalid.password', { min: PASSWORD_MIN }),
    };
    setInvalid(found);
    if (Object.values(found).some(Boolean)) return;
    if (await action.submit()) close();
  };
  const taken = action.error?.code === ERROR_CODES.DATA_EXISTS;
  return (
    <Modal opened={opened} onClose={close} title={t('seats.create.title')} centered>
      <form onSubmit={submit} noValidate data-testid="seat-create-dialog">
        <Stack>
          <TextInput
            label={t('seats.fields.account')}
            description={t('seats.fields.accountHint')}
            value={account}
            onChange={(e) => setAccount(e.currentTarget.value)}
            error={invalid.account ?? (taken ? action.error?.message : undefined)}
            data-testid="seat-create-account"
            data-autofocus
            required
          />
          <TextInput
            label={t('seats.fields.nickname')}
            description={t('seats.fields.nicknameHint')}
            value={nick}
            onChange={(e) => setNick(e.currentTarget.value)}
            error={invalid.nickname}
            data-testid="seat-create-nickname"
          />
          <PasswordInput
            label={t('seats.fields.password')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={invalid.password}
            autoComplete="new-password"
            data-testid="seat-create-password"
            required
          />
          {!taken && <ActionAlert error={action.error} />}
          <DialogButtons busy={action.busy} onClose={close} testId="seat-create-submit" />
        </Stack>
      </form>
    </Modal>
  );
}

/** The seat's nickname, as its console shows it. */
export function SeatNicknameDialog({
  seat,
  onClose,
}: {
  seat: AdminSeat | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const action = useAdminAction(
    (nick: string) =>
      callAdmin(
        '/v1/admin/seats/update',
        { seat_id: seat!.seat_id, nickname: nick },
        { notify: false },
      ),
    ['seats', 'audit'],
  );
  return (
    <TextFieldDialog
      opened={seat !== null}
      title={t('seats.nickname.title')}
      subject={seat?.account}
      label={t('seats.fields.nickname')}
      initial={seat?.nickname ?? ''}
      isValid={(value) => nicknameSchema.safeParse(value).success}
      invalidMessage={t('seats.invalid.nickname')}
      action={action}
      testId="seat-nickname"
      onClose={onClose}
    />
  );
}

/** A new password for the seat; its logins end (its consoles ask to log in again). */
export function SeatPasswordDialog({
  seat,
  onClose,
}: {
  seat: AdminSeat | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<string>();
  const action = useAdminAction(
    (seatId: number, pw: string) =>
      callAdmin(
        '/v1/admin/seats/resetPassword',
        { seat_id: seatId, password: pw },
        { notify: false },
      ),
    ['seats', 'audit'],
  );
  const close = () => {
    setPassword('');
    setInvalid(undefined);
    action.clearError();
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!seat) return;
    const ok = newPassword.safeParse(password).success;
    setInvalid(ok ? undefined : t('seats.invalid.password', { min: PASSWORD_MIN }));
    if (ok && (await action.submit(seat.seat_id, password))) close();
  };
  return (
    <Modal opened={seat !== null} onClose={close} title={t('seats.password.title')} centered>
      <form onSubmit={submit} noValidate data-testid="seat-password-dialog">
        <Stack>
          <Text size="sm">{t('seats.password.hint', { account: seat?.account ?? '' })}</Text>
          <PasswordInput
            label={t('seats.fields.newPassword')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={invalid}
            autoComplete="new-password"
            data-testid="seat-password-input"
            data-autofocus
          />
          <ActionAlert error={action.error} />
          <DialogButtons busy={action.busy} onClose={close} testId="seat-password-submit" />
        </Stack>
      </form>
    </Modal>
  );
}

/** Freezing ends the seat's logins at once; unfreezing lets it sign in again. */
export function SeatFreezeDialog({
  seat,
  onClose,
}: {
  seat: AdminSeat | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const action = useAdminAction(
    (seatId: number, frozen: boolean) =>
      callAdmin('/v1/admin/seats/freeze', { seat_id: seatId, frozen }, { notify: false }),
    ['seats', 'audit'],
  );
  const freeze = !seat?.frozen;
  const close = () => {
    action.clearError();
    onClose();
  };
  const confirm = async () => {
    if (seat && (await action.submit(seat.seat_id, freeze))) close();
  };
  return (
    <Modal
      opened={seat !== null}
      onClose={close}
      title={t(freeze ? 'seats.freeze.title' : 'seats.unfreeze.title')}
      centered
    >
      <Stack data-testid="seat-freeze-dialog">
        <Text>
          {t(freeze ? 'seats.freeze.text' : 'seats.unfreeze.text', {
            account: seat?.account ?? '',
          })}
        </Text>
        <ActionAlert error={action.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('actions.cancel')}
          </Button>
          <Button
            color={freeze ? 'red' : 'blue'}
            loading={action.busy}
            onClick={() => void confirm()}
            data-testid="seat-freeze-confirm"
          >
            {t(freeze ? 'seats.freeze.confirm' : 'seats.unfreeze.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
