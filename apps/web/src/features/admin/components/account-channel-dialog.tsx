import { useRef, useState, type FormEvent } from 'react';
import { Button, Divider, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  CHANNEL_NAMES,
  DEFAULT_CHANNEL,
  type AdminCallInput,
  type AdminPhoneAccount,
  type ChannelKind,
} from '@parley/protocol';
import type { ChannelView, CredentialsForm } from '../../../lib/channel-view';
import { callAdmin } from '../api/admin-client';
import { useAdminAction } from '../hooks/use-admin-action';
import { ActionAlert } from './action-alert';

type SetChannel = AdminCallInput<'/v1/admin/accounts/setChannel'>;

/**
 * The account's channel: one of the protocol's channels, chosen; what each shows here (its
 * credential fields while chosen, its state while bound, the note when unbinding) comes from
 * its view (lib/channel-view.ts, handed in from app/channels.ts). Unbound by choosing another.
 */
export function AccountChannelDialog({
  account,
  onClose,
  channelView,
}: {
  account: AdminPhoneAccount | null;
  onClose: () => void;
  channelView: (channel: string | undefined) => ChannelView;
}) {
  const { t } = useTranslation('admin');
  const [choice, setChoice] = useState<ChannelKind | null>(null);
  /** Bound in this dialog to a channel whose view stays open on its bound panel. */
  const [justBound, setJustBound] = useState<ChannelKind | null>(null);
  /** Bumped on each binding: the credential fields start empty again. */
  const [binds, setBinds] = useState(0);
  const form = useRef<CredentialsForm | null>(null);
  const boundTo = justBound ?? account?.channel;
  const channel = choice ?? boundTo ?? DEFAULT_CHANNEL;
  const chosen = channelView(channel).admin ?? {};
  const bound = (boundTo !== undefined && channelView(boundTo).admin) || {};
  const leaving = boundTo !== undefined && channel !== boundTo;
  const action = useAdminAction(
    (set: SetChannel) => callAdmin('/v1/admin/accounts/setChannel', set, { notify: false }),
    ['accounts', 'audit'],
  );
  const close = () => {
    setChoice(null);
    setJustBound(null);
    action.clearError();
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!account) return;
    let credentials: Record<string, string> = {};
    if (chosen.Credentials) {
      const collected = form.current?.collect();
      if (!collected) return;
      credentials = collected;
    }
    // The channel's view gives the fields of its own credentials: the server checks them.
    const set = { account_id: account.account_id, channel, ...credentials } as SetChannel;
    if (!(await action.submit(set))) return;
    if (!chosen.staysOpenOnBind) return close();
    setChoice(null);
    setJustBound(channel);
    setBinds((n) => n + 1);
  };
  const refusedFields = (action.error?.fields ?? []).filter((f) =>
    chosen.credentialFields?.includes(f),
  );
  const refused =
    action.error && refusedFields.length > 0
      ? { fields: refusedFields, message: action.error.message }
      : null;
  const { BoundPanel, unbindNote } = bound;
  const { Credentials } = chosen;
  const unbinding = leaving && bound.unbindLabel !== undefined;
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
          {account && boundTo && BoundPanel && (
            <>
              <BoundPanel account={{ ...account, channel: boundTo }} callAdmin={callAdmin} />
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
          {Credentials && (
            <Credentials
              key={`${channel}-${binds}`}
              bound={!leaving && boundTo !== undefined}
              formRef={form}
              refused={refused}
            />
          )}
          {leaving && unbindNote && (
            <Text size="sm" c="orange" data-testid="account-channel-unbind-note">
              {t(unbindNote)}
            </Text>
          )}
          {!refused && <ActionAlert error={action.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('actions.cancel')}
            </Button>
            <Button
              type="submit"
              loading={action.busy}
              data-testid="account-channel-submit"
              color={unbinding ? 'orange' : undefined}
            >
              {unbinding
                ? t(bound.unbindLabel ?? '')
                : chosen.bindLabel
                  ? t(chosen.bindLabel)
                  : t('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
