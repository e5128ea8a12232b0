import { useCallback } from 'react';
import { Center, Loader, Text } from '@mantine/core';
import { Virtuoso } from 'react-virtuoso';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import type { DisplayMessage } from '../api/merge-messages';
import { useChatMessages } from '../hooks/use-chat-messages';
import type { LocalMessage } from '../local-messages.store';
import { MessageBubble } from './message-bubble';
import { MessageContextMenu } from '../../message-actions/components/message-context-menu';
import { useMessageContextMenu } from '../../message-actions/hooks/use-message-context-menu';

interface Props {
  user: SessionItem;
  onRetry: (m: LocalMessage) => void;
}

/** Virtualised chat: older pages are prepended on scroll up, new ones follow at the bottom. */
export function MessageList({ user, onRetry }: Props) {
  const { t } = useTranslation('chat');
  const { messages, firstItemIndex, isPending, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useChatMessages(user);

  const startReached = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // Follow new messages when at the bottom, and always after the operator sends one.
  const lastStatus = messages.at(-1)?.status;
  const lastIsOwnPending = lastStatus === 'pending' || lastStatus === 'waiting';
  const followOutput = useCallback(
    (atBottom: boolean) => (lastIsOwnPending ? 'auto' : atBottom ? 'smooth' : false),
    [lastIsOwnPending],
  );

  const menu = useMessageContextMenu();
  const onContextMenu = menu.onContextMenu;
  const itemContent = useCallback(
    (_: number, m: DisplayMessage) => (
      <div onContextMenu={(e) => onContextMenu(m, e)}>
        <MessageBubble message={m} onRetry={onRetry} />
      </div>
    ),
    [onRetry, onContextMenu],
  );

  return (
    <div style={{ flex: 1, minHeight: 0 }} data-testid="message-list">
      {isPending ? (
        <Center h="100%">
          <Loader size="sm" />
        </Center>
      ) : messages.length === 0 ? (
        <Center h="100%">
          <Text c="dimmed" size="sm">
            {t('noMessages')}
          </Text>
        </Center>
      ) : (
        <Virtuoso
          style={{ height: '100%' }}
          data={messages}
          firstItemIndex={firstItemIndex}
          initialTopMostItemIndex={{ index: messages.length - 1, align: 'end' }}
          computeItemKey={(_, m) => m.key}
          itemContent={itemContent}
          startReached={startReached}
          followOutput={followOutput}
          increaseViewportBy={{ top: 400, bottom: 200 }}
          components={{
            Header: () =>
              isFetchingNextPage ? (
                <Center p="xs">
                  <Loader size="xs" />
                </Center>
              ) : (
                <div style={{ height: 8 }} />
              ),
          }}
        />
      )}
      <MessageContextMenu state={menu.state} onClose={menu.close} />
    </div>
  );
}
