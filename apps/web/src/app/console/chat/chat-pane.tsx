import { Badge, Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { AddChatButton } from '../../../features/add-chat/components/add-chat-button';
import { useConsole } from '../../../stores/console.store';
import { openProfileCard } from '../../../stores/profile-card.store';
import { ChatHeaderActions } from '../../../features/session-actions/components/chat-header-actions';
import { UnservedPairNotice } from '../../../features/translation/components/unserved-pair-notice';
import { useSendMedia } from '../../../features/messages/hooks/use-send-media';
import { useSendMessage } from '../../../features/messages/hooks/use-send-message';
import { ChatDropZone } from '../../../features/chat/components/chat-drop-zone';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { TagsView } from '../../../features/chat/components/tags-view';
import { LineIcon } from '../../../components/line-icon';

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
        <Box flex={1} mih={0}>
          <EmptyState
            testId="empty-chat"
            icon={<ChatIcon />}
            title={t('noChatOpen.title')}
            text={t('noChatOpen.text')}
            action={<AddChatButton testId="empty-chat-add" variant="filled" />}
          />
        </Box>
      </Stack>
    );
  }

  const disabled = groupDisabled || user.blocked;
  const sendLine = `${t('via', { phone: user.send_phone })}${user.remark ? ` · ${user.remark}` : ''}`;
  const onFiles = (files: File[]) => sendFiles(user, files);
  return (
    <ChatDropZone enabled={!disabled} onFiles={onFiles}>
      <TagsView />
      <Group
        px="md"
        py="xs"
        justify="space-between"
        wrap="nowrap"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        {/* The customer's profile card opens from the header. */}
        <UnstyledButton
          onClick={openProfileCard}
          data-testid="chat-header-profile"
          style={{ minWidth: 0 }}
        >
          <Text fw={700} data-testid="chat-title">
            {user.receiver_phone}
          </Text>
          {/* A long remark ends in an ellipsis on one line; the whole of it on hover. */}
          <Text size="xs" c="dimmed" truncate title={sendLine} data-testid="chat-send-phone">
            {sendLine}
          </Text>
        </UnstyledButton>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
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

function ChatIcon() {
  return (
    <LineIcon size={22}>
      <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.4A8 8 0 1 1 21 12z" />
    </LineIcon>
  );
}
