import { Suspense } from 'react';
import { Box, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { templateGreeting } from '../../channels';
import { AddChatButton } from '../../../features/add-chat/components/add-chat-button';
import { useConsole } from '../../../stores/console.store';
import { TagsView } from '../../../features/chat/components/tags-view';
import { MessageListSkeleton } from '../../../features/chat/components/message-list-skeleton';
import { LineIcon } from '../../../components/line-icon';
import { OpenChat } from './lazy-open-chat';
import { BackToList } from './back-to-list';
import { lazyComponent } from '../../../lib/lazy-component';
import { previewQueued, useTeamView } from '../../../features/team/team-view.store';

/** A queued chat's preview (a team member's, before Take): fetched when first looked at. */
const QueuedChatPane = lazyComponent(
  async () => (await import('../../../features/team/components/queued-chat-pane')).QueuedChatPane,
);

export function ChatPane() {
  const { t } = useTranslation('chat');
  const user = useConsole((s) => s.selectedUser);
  const missing = useConsole((s) => s.missingChat);
  const preview = useTeamView((s) => s.preview);

  if (!user && preview !== null) {
    return (
      <Stack h="100%" gap={0} data-testid="chat-pane">
        <BackToList onBack={() => previewQueued(null)} />
        <Box flex={1} mih={0}>
          <QueuedChatPane sessionId={preview} />
        </Box>
      </Stack>
    );
  }

  if (!user && missing !== null) {
    return (
      <Stack h="100%" gap={0} data-testid="chat-pane" data-empty="true">
        <BackToList />
        <Box flex={1} mih={0}>
          <EmptyState
            testId="chat-not-found"
            icon={<ChatIcon />}
            title={t('chatNotFound.title')}
            text={t('chatNotFound.text')}
          />
        </Box>
      </Stack>
    );
  }

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
            action={
              <AddChatButton
                testId="empty-chat-add"
                variant="filled"
                templateGreeting={templateGreeting}
              />
            }
          />
        </Box>
      </Stack>
    );
  }

  // The first chat opened waits for the chat's code: the skeleton the message list shows
  // while a record loads.
  return (
    <Suspense
      fallback={
        <Stack h="100%" gap={0} data-testid="chat-pane" data-loading="true">
          <TagsView />
          <MessageListSkeleton />
        </Stack>
      }
    >
      <OpenChat user={user} />
    </Suspense>
  );
}

function ChatIcon() {
  return (
    <LineIcon size={22}>
      <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.4A8 8 0 1 1 21 12z" />
    </LineIcon>
  );
}
