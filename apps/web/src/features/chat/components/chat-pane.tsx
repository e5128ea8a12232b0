import { Badge, Center, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useConsole } from '../../console/console.store';
import { openProfileCard } from '../../profile/profile-card.store';
import { ChatHeaderActions } from '../../session-actions/components/chat-header-actions';
import { UnservedPairNotice } from '../../translation/components/unserved-pair-notice';
import { useSendMedia } from '../hooks/use-send-media';
import { useSendMessage } from '../hooks/use-send-message';
import { ChatDropZone } from './chat-drop-zone';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { TagsView } from './tags-view';

export function ChatPane() {
  const { t } = useTranslation('chat');
  const user = useConsole((s) => s.selectedUser);
  const groupDisabled = useConsole((s) => s.selectedGroup?.disabled ?? false);
  const { send, retry } = useSendMessage();
  const { sendFiles, sendVoice } = useSendMedia();

  if (!user) {
    return (
      <Stack h="100%" gap={0} data-testid="chat-pane" data-empty="true">
        <TagsView />
        <Center flex={1} data-testid="empty-chat">
          <Stack align="center" gap={4}>
            <Text size="xl">💬</Text>
            <Text c="dimmed">{t('emptyChat')}</Text>
          </Stack>
        </Center>
      </Stack>
    );
  }

  const disabled = groupDisabled || user.blocked;
  const onFiles = (files: File[]) => sendFiles(user, files);
  return (
    <ChatDropZone enabled={!disabled} onFiles={onFiles}>
      <TagsView />
      <Group
        px="md"
        py="xs"
        justify="space-between"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        {/* The customer's profile card opens from the header. */}
        <UnstyledButton onClick={openProfileCard} data-testid="chat-header-profile">
          <Text fw={700} data-testid="chat-title">
            {user.receiver_phone}
          </Text>
          <Text size="xs" c="dimmed" data-testid="chat-send-phone">
            {t('via', { phone: user.send_phone })}
            {user.remark ? ` · ${user.remark}` : ''}
          </Text>
        </UnstyledButton>
        <Group gap="xs" wrap="nowrap">
          {disabled && (
            <Badge color="gray" variant="light" data-testid="chat-blocked">
              {t('blockedChat')}
            </Badge>
          )}
          <ChatHeaderActions user={user} />
        </Group>
      </Group>
      <UnservedPairNotice user={user} />
      <div className="chat-backdrop" style={{ flex: 1, minHeight: 0, display: 'flex' }}>
        <MessageList key={user.session_id} user={user} onRetry={retry} />
      </div>
      <Composer
        key={user.session_id}
        user={user}
        disabled={disabled}
        onSend={(text, original) => send(user, text, original)}
        onFiles={onFiles}
        onVoice={(note) => sendVoice(user, note.blob, note.fileName, note.durationMs)}
      />
    </ChatDropZone>
  );
}
