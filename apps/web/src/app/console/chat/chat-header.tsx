import { Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { openProfileCard } from '../../../stores/profile-card.store';
import { ChatHeaderActions } from '../../../features/session-actions/components/chat-header-actions';
import { CustomerAvatar } from '../../../components/customer-avatar';
import { customerNameOrNull } from '../../../lib/customer-name';
import { BackToList } from './back-to-list';
import { useConsoleWidth } from '../use-console-width';
import { TeamActionItems, TeamChatBar } from '../../../features/team/components/team-chat-bar';

interface Props {
  user: SessionItem;
  disabled: boolean;
}

/** The open chat's header: the customer (the profile card opens from it) and the chat's actions. */
export function ChatHeader({ user, disabled }: Props) {
  const { t } = useTranslation('chat');
  const sendLine = `${t('via', { phone: user.send_phone })}${user.remark ? ` · ${user.remark}` : ''}`;
  const name = customerNameOrNull(user);
  const phone = useConsoleWidth() === 'phone';
  return (
    <Group
      px="md"
      py="xs"
      gap="xs"
      justify="space-between"
      wrap="nowrap"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <BackToList />
      {/* The customer's profile card opens from the header. */}
      <UnstyledButton
        onClick={openProfileCard}
        data-testid="chat-header-profile"
        style={{ minWidth: 0, flex: 1 }}
      >
        <Group gap="sm" wrap="nowrap">
          <CustomerAvatar customer={user} size={38} testId="chat-avatar" />
          <div style={{ minWidth: 0 }}>
            {/* The remark, else the channel's name, then the number (never cut). */}
            <Group gap={6} wrap="nowrap">
              {name && (
                <Text fw={700} truncate title={name} data-testid="chat-name">
                  {name}
                </Text>
              )}
              <Text
                fw={name ? 400 : 700}
                size={name ? 'sm' : undefined}
                c={name ? 'dimmed' : undefined}
                style={{ whiteSpace: 'nowrap', flexShrink: 0 }}
                data-testid="chat-title"
              >
                {user.receiver_phone}
              </Text>
            </Group>
            {/* A long remark ends in an ellipsis on one line; the whole of it on hover. */}
            <Text size="xs" c="dimmed" truncate title={sendLine} data-testid="chat-send-phone">
              {sendLine}
            </Text>
          </div>
        </Group>
      </UnstyledButton>
      <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
        {disabled && (
          <Badge color="gray" variant="light" data-testid="chat-blocked">
            {t('blockedChat')}
          </Badge>
        )}
        <TeamChatBar user={user} compact={phone} />
        <ChatHeaderActions user={user} Extra={TeamActionItems} />
      </Group>
    </Group>
  );
}
