import { useCallback } from 'react';
import type { SessionItem } from '@parley/protocol';
import type { DisplayMessage } from '../../messages/api/merge-messages';
import { useChatJump } from '../../../stores/chat-jump.store';
import { useChatMessages } from './use-chat-messages';
import { useChatWindow } from './use-chat-window';

/** What the virtualised message list shows, whichever way the chat was opened. */
export interface MessageListSource {
  /** Changes when the list must start over (another jump, or back to the live chat). */
  key: string;
  messages: DisplayMessage[];
  firstItemIndex: number;
  isPending: boolean;
  initialItem: { index: number; align: 'center' | 'end' };
  loadOlder: () => void;
  loadNewer: () => void;
  isFetchingOlder: boolean;
  isFetchingNewer: boolean;
  /** The newest message is loaded: follow new ones at the bottom. */
  atNewest: boolean;
  /** The search hit the chat was opened at (highlighted), if any. */
  highlightId: number | null;
}

/**
 * The live chat (newest first), or, when the chat was opened at a message, the window around
 * it (useChatWindow). Only the hook in use fetches.
 */
export function useMessageListSource(user: SessionItem): MessageListSource {
  const jump = useChatJump(user.session_id);
  const live = useChatMessages(user, jump === null);
  const win = useChatWindow(user, jump);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = live;
  const loadLiveOlder = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const { hasPreviousPage, isFetchingPreviousPage, fetchPreviousPage } = win;
  const loadWinOlder = useCallback(() => {
    if (hasPreviousPage && !isFetchingPreviousPage) void fetchPreviousPage();
  }, [hasPreviousPage, isFetchingPreviousPage, fetchPreviousPage]);
  const {
    hasNextPage: hasNewer,
    isFetchingNextPage: fetchingNewer,
    fetchNextPage: fetchNewer,
  } = win;
  const loadWinNewer = useCallback(() => {
    if (hasNewer && !fetchingNewer) void fetchNewer();
  }, [hasNewer, fetchingNewer, fetchNewer]);

  if (!jump) {
    return {
      key: 'live',
      messages: live.messages,
      firstItemIndex: live.firstItemIndex,
      isPending: live.isPending,
      initialItem: { index: Math.max(0, live.messages.length - 1), align: 'end' },
      loadOlder: loadLiveOlder,
      loadNewer: noop,
      isFetchingOlder: live.isFetchingNextPage,
      isFetchingNewer: false,
      atNewest: true,
      highlightId: null,
    };
  }
  return {
    key: `window-${jump.seq}`,
    messages: win.messages,
    firstItemIndex: win.firstItemIndex,
    isPending: win.isPending,
    initialItem: { index: win.anchorIndex, align: 'center' },
    loadOlder: loadWinOlder,
    loadNewer: loadWinNewer,
    isFetchingOlder: win.isFetchingPreviousPage,
    isFetchingNewer: win.isFetchingNextPage,
    atNewest: win.atNewest,
    highlightId: jump.msgId,
  };
}

function noop() {}
