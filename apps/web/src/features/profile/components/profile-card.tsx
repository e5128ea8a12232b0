import '../../../components/mantine-console-styles';
import type { ComponentType, ReactNode } from 'react';
import { Badge, Button, Drawer, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { accountChannel } from '../../../lib/account-channel';
import { useConsole } from '../../../stores/console.store';
import { useGroupList } from '../../sessions/hooks/use-group-list';
import { useGroupName } from '../../sessions/hooks/use-group-name';
import { openSessionDialog } from '../../../stores/session-dialogs.store';
import { run, useSessionActions } from '../../sessions/hooks/use-session-actions';
import { closeProfileCard, useProfileCardOpened } from '../../../stores/profile-card.store';
import { CustomerAvatar } from '../../../components/customer-avatar';
import { customerNameOrNull } from '../../../lib/customer-name';
import { RemarkField } from './remark-field';
import { LabelPicker } from './label-picker';
import type { ChannelView } from '../../../lib/channel-view';

type LanguageField = ComponentType<{ user: SessionItem }>;
/** The view of a channel by name (app/channels.ts: the console hands it in). */
type ChannelViewOf = (channel: string | undefined) => ChannelView;

/**
 * The open chat's customer: number, remark, the channel's own profile rows, group, block state,
 * language (its field handed in by the console: translation owns the customer's language).
 */
export function ProfileCard({
  LanguageField,
  channelView,
}: {
  LanguageField: LanguageField;
  channelView: ChannelViewOf;
}) {
  const { t } = useTranslation('profile');
  const opened = useProfileCardOpened();
  const user = useConsole((s) => s.selectedUser);
  return (
    <Drawer
      opened={opened && user !== null}
      onClose={closeProfileCard}
      position="right"
      size={360}
      title={t('title')}
    >
      {user && (
        <ProfileBody
          key={user.session_id}
          user={user}
          LanguageField={LanguageField}
          channelView={channelView}
        />
      )}
    </Drawer>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

function ProfileBody({
  user,
  LanguageField,
  channelView,
}: {
  user: SessionItem;
  LanguageField: LanguageField;
  channelView: ChannelViewOf;
}) {
  const { t } = useTranslation('profile');
  const actions = useSessionActions();
  const groupName = useGroupName();
  const { data } = useGroupList();
  const name = customerNameOrNull(user);
  const group = data?.group_list.find((g) => g.group_id === user.group_id);
  const { ProfileVia, ProfileRows } = channelView(accountChannel(user.send_phone));

  return (
    <Stack gap="lg" data-testid="profile-card">
      <Group gap="md" wrap="nowrap">
        <CustomerAvatar customer={user} size={56} testId="profile-avatar" />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={700} size="lg" truncate title={name ?? undefined} data-testid="profile-name">
            {name ?? user.receiver_phone}
          </Text>
          {/* The channel's own name, when a remark is shown instead. */}
          {user.customer_name && user.customer_name !== name && (
            <Text size="sm" c="dimmed" truncate data-testid="profile-channel-name">
              {t('channelName', { name: user.customer_name })}
            </Text>
          )}
        </Stack>
      </Group>
      <Field label={t('number')}>
        <Text fw={700} size="lg" data-testid="profile-number">
          {user.receiver_phone}
        </Text>
        <Text size="xs" c="dimmed">
          {t('via', { phone: user.send_phone })}
          {ProfileVia && <ProfileVia />}
        </Text>
      </Field>
      <Field label={t('remark')}>
        <RemarkField user={user} />
      </Field>
      <Field label={t('labels')}>
        <LabelPicker user={user} />
      </Field>
      {ProfileRows && <ProfileRows user={user} />}
      <Field label={t('group')}>
        <Group justify="space-between" wrap="nowrap">
          <Text data-testid="profile-group">{group ? groupName(group) : ''}</Text>
          {!user.blocked && (
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => openSessionDialog('move', user)}
              data-testid="profile-move"
            >
              {t('move')}
            </Button>
          )}
        </Group>
      </Field>
      <Field label={t('blockState')}>
        <Group justify="space-between" wrap="nowrap">
          <Badge
            color={user.blocked ? 'red' : 'green'}
            variant="light"
            data-testid="profile-block-state"
            data-blocked={user.blocked ? 'true' : 'false'}
          >
            {user.blocked ? t('blocked') : t('notBlocked')}
          </Badge>
          <Button
            size="compact-sm"
            variant="light"
            color={user.blocked ? undefined : 'red'}
            onClick={() => run(actions.setBlocked(user, !user.blocked))}
            data-testid={user.blocked ? 'profile-unblock' : 'profile-block'}
          >
            {user.blocked ? t('unblock') : t('block')}
          </Button>
        </Group>
      </Field>
      <Field label={t('language')}>
        <LanguageField user={user} />
      </Field>
    </Stack>
  );
}
