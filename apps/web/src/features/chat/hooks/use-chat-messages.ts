import { useMemo } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { SessionItem } from '@parley/protocol';
import { chatRecordQuery } from '../../messages/api/message-cache';
import { flattenPages, mergeMessages } from '../../messages/api/merge-messages';
import { useLocalMessages } from '../../messages/local-messages.store';

/** Virtuoso's firstItemIndex starts high and drops by each prepended older page. */
export const FIRST_INDEX_BASE = 1_000_000_000;

/** The live chat: newest page first, older pages prepended on scroll up. */
export function useChatMessages(user: SessionItem, enabled = true) {
  const query = useInfiniteQuery({ ...chatRecordQuery(user), enabled });
  const locals = useLocalMessages(user.session_id);
  const pages = query.data?.pages;
  const fetched = useMemo(() => (pages ? flattenPages(pages) : []), [pages]);
  const messages = useMemo(() => mergeMessages(fetched, locals), [fetched, locals]);
  const olderCount = useMemo(
    () => (pages ? pages.slice(1).reduce((n, p) => n + p.list.length, 0) : 0),
    [pages],
  );
  return { ...query, messages, firstItemIndex: FIRST_INDEX_BASE - olderCount };
}
