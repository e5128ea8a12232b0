import { useEffect, useMemo, useRef } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { SessionItem } from '@parley/protocol';
import { chatWindowQuery, flattenWindow } from '../../messages/api/message-cache';
import { mergeMessages } from '../../messages/api/merge-messages';
import { clearJump, type ChatJump } from '../../../stores/chat-jump.store';
import { useLocalMessages } from '../../messages/local-messages.store';
import { FIRST_INDEX_BASE } from './use-chat-messages';

const NO_JUMP: ChatJump = { sessionId: 0, msgId: 0, seq: 0 };

/**
 * The chat read around one message (a search hit): older pages on scroll up, newer pages on
 * scroll down. Once the newest message is loaded it behaves like the live chat: refreshed with
 * the chat, showing the operator's pending messages. Sending while older than the newest goes
 * back to the live chat (the new message belongs after messages not loaded here).
 */
export function useChatWindow(user: SessionItem, jump: ChatJump | null) {
  const { msgId } = jump ?? NO_JUMP;
  const query = useInfiniteQuery({ ...chatWindowQuery(user, msgId), enabled: jump !== null });
  const locals = useLocalMessages(user.session_id);
  const pages = query.data?.pages;
  const atNewest = !!pages && !query.hasNextPage;

  const fetched = useMemo(() => (pages ? flattenWindow(pages) : []), [pages]);
  const messages = useMemo(
    () => mergeMessages(fetched, atNewest ? locals : []),
    [fetched, locals, atNewest],
  );
  // Virtuoso keeps its place when older items are prepended if the first index drops by their
  // number: count what is older than the hit (the same however the pages are cut).
  const olderCount = useMemo(
    () => fetched.filter((m) => m.msg_id < msgId).length,
    [fetched, msgId],
  );
  const anchorIndex = useMemo(() => fetched.findIndex((m) => m.msg_id === msgId), [fetched, msgId]);

  const localCount = useRef(locals.length);
  useEffect(() => {
    const added = locals.length > localCount.current;
    localCount.current = locals.length;
    if (jump && added && !atNewest) clearJump();
  }, [locals.length, jump, atNewest]);

  return {
    ...query,
    messages,
    firstItemIndex: FIRST_INDEX_BASE - olderCount,
    anchorIndex: Math.max(0, anchorIndex),
    atNewest,
  };
}
