import { Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import '../../../components/mantine-console-styles';
import { useConsole } from '../../../stores/console.store';
import { takeReplyTarget } from '../../../stores/reply-target.store';
import { openProfileCard } from '../../../stores/profile-card.store';
import { ChatHeaderActions } from '../../../features/session-actions/components/chat-header-actions';
import { UnservedPairNotice } from '../../../features/translation/components/unserved-pair-notice';
import { useSendMedia } from '../../../features/messages/hooks/use-send-media';
import { useSendMessage } from '../../../features/messages/hooks/use-send-message';
import { ChatDropZone } from '../../../features/chat/components/chat-drop-zone';
import { TagsView } from '../../../features/chat/components/tags-view';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { BackToList } from './back-to-list';
import { CustomerAvatar } from '../../../components/customer-avatar';
import { customerNameOrNull } from '../../../lib/customer-name';
import { WhatsappWindowNotice } from '../../../features/whatsapp/components/whatsapp-window-notice';
import { TemplateComposer } from '../../../features/whatsapp/components/template-composer';
import { useWhatsappWindow } from '../../../features/whatsapp/hooks/use-whatsapp-window';

/**
 * The open chat: header, messages, composer. Its code (the message list, the composer and
 * what they bring: emoji, quick replies, translation, recording, menus) is fetched when the
 * operator first opens a chat, not with the console's first screen.
 */
export function OpenChat({ user }: { user: SessionItem }) {
  const { t } = useTranslation('chat');
  const groupDisabled = useConsole((s) => s.selectedGroup?.disabled ?? false);
  const { send, retry } = useSendMessage();
  const { sendFiles, sendVoice } = useSendMedia();
  const disabled = groupDisabled || user.blocked;
  const whatsapp = useWhatsappWindow(user);
  const sendLine = `${t('via', { phone: user.send_phone })}${user.remark ? ` · ${user.remark}` : ''}`;
  const onFiles = (files: File[]) => sendFiles(user, files);
  const name = customerNameOrNull(user);
  return (
    <ChatDropZone enabled={!disabled} onFiles={onFiles}>
      <TagsView />
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
          <ChatHeaderActions user={user} />
        </Group>
      </Group>
      <UnservedPairNotice user={user} />
      <div className="chat-backdrop" style={{ flex: 1, minHeight: 0, display: 'flex' }}>
        <MessageList key={user.session_id} user={user} onRetry={retry} />
      </div>
      <WhatsappWindowNotice user={user} />
      {/* Past a WhatsApp chat's window only a template goes: the picker takes the composer's place. */}
      {whatsapp.closed ? (
        <TemplateComposer
          key={user.session_id}
          user={user}
          templates={whatsapp.window?.templates ?? []}
          disabled={disabled}
        />
      ) : (
        <Composer
          key={user.session_id}
          user={user}
          disabled={disabled}
          onSend={(text, original) => send(user, text, original, takeReplyTarget(user.session_id))}
          onFiles={onFiles}
          onVoice={(note) => sendVoice(user, note.blob, note.fileName, note.durationMs)}
        />
      )}
    </ChatDropZone>
  );
}
