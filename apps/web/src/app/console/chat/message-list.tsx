import { useCallback } from 'react';
import { Center, Loader, Text } from '@mantine/core';
import { Virtuoso } from 'react-virtuoso';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import type { DisplayMessage } from '../../../features/messages/api/merge-messages';
import { useMessageListSource } from '../../../features/chat/hooks/use-message-list-source';
import type { LocalMessage } from '../../../features/messages/local-messages.store';
import { JumpToLatest } from '../../../features/chat/components/jump-to-latest';
import { MessageBubble } from '../../../features/chat/components/message-bubble';
import { MessageListSkeleton } from '../../../features/chat/components/message-list-skeleton';
import { useMessageContextMenu } from '../../../features/message-actions/hooks/use-message-context-menu';
import { useAutoTranslate } from '../../../features/translation/hooks/use-auto-translate';
import { MessageTranslation } from '../../../features/translation/components/message-translation';
import { lazyComponent } from '../../../lib/lazy-component';
import { useOpenedOnce } from '../../../lib/use-opened-once';
import classes from './message-list.module.css';

// The right-click menu (copy, delete, translate) is fetched at the first right-click.
const MessageContextMenu = lazyComponent(
  async () =>
    (await import('../../../features/message-actions/components/message-context-menu'))
      .MessageContextMenu,
);

interface Props {
  user: SessionItem;
  onRetry: (m: LocalMessage) => void;
}

/**
 * Virtualised chat: older pages are prepended on scroll up, new ones follow at the bottom. A
 * chat opened at a search hit starts centred on it and loads newer pages on scroll down.
 */
export function MessageList({ user, onRetry }: Props) {
  const { t } = useTranslation('chat');
  const list = useMessageListSource(user);
  const { messages, highlightId, atNewest } = list;
  useAutoTranslate(user, messages);

  // Follow new messages when at the bottom, and always after the operator sends one.
  const lastStatus = messages.at(-1)?.status;
  const lastIsOwnPending = lastStatus === 'pending' || lastStatus === 'waiting';
  const followOutput = useCallback(
    (atBottom: boolean) =>
      !atNewest ? false : lastIsOwnPending ? 'auto' : atBottom ? 'smooth' : false,
    [lastIsOwnPending, atNewest],
  );

  const menu = useMessageContextMenu();
  const { onContextMenu, press } = menu;
  const menuMounted = useOpenedOnce(menu.state !== null);
  const itemContent = useCallback(
    (_: number, m: DisplayMessage) => (
      <div
        onContextMenu={(e) => onContextMenu(m, e)}
        onPointerDown={(e) => press.onPointerDown(m, e)}
        onPointerMove={press.onPointerMove}
        onPointerUp={press.onPointerEnd}
        onPointerCancel={press.onPointerEnd}
        onTouchEnd={press.onTouchEnd}
        onClickCapture={press.onClickCapture}
        className={m.msg_id === highlightId ? classes.hit : undefined}
        data-highlighted={m.msg_id === highlightId ? 'true' : undefined}
      >
        <MessageBubble message={m} onRetry={onRetry} Annotation={MessageTranslation} />
      </div>
    ),
    [onRetry, onContextMenu, press, highlightId],
  );

  return (
    <div style={{ flex: 1, minHeight: 0, position: 'relative' }} data-testid="message-list">
      {list.isPending ? (
        <MessageListSkeleton />
      ) : messages.length === 0 ? (
        <Center h="100%">
          <Text c="dimmed" size="sm">
            {t('noMessages')}
          </Text>
        </Center>
      ) : (
        <Virtuoso
          key={list.key}
          style={{ height: '100%' }}
          data={messages}
          firstItemIndex={list.firstItemIndex}
          initialTopMostItemIndex={list.initialItem}
          computeItemKey={(_, m) => m.key}
          itemContent={itemContent}
          startReached={list.loadOlder}
          endReached={list.loadNewer}
          followOutput={followOutput}
          increaseViewportBy={{ top: 400, bottom: 200 }}
          components={{
            Header: () => <Edge loading={list.isFetchingOlder} />,
            Footer: () => <Edge loading={list.isFetchingNewer} />,
          }}
        />
      )}
      {menuMounted && (
        <MessageContextMenu state={menu.state} onClose={menu.close} canReply={!user.blocked} />
      )}
      {!atNewest && <JumpToLatest />}
    </div>
  );
}

function Edge({ loading }: { loading: boolean }) {
  return loading ? (
    <Center p="xs">
      <Loader size="xs" />
    </Center>
  ) : (
    <div style={{ height: 8 }} />
  );
}
