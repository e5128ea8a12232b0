import { useCallback, useMemo } from 'react';
import { Box, Center, Loader } from '@mantine/core';
import { PagedVirtualList } from '../../../components/paged-virtual-list';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { messageSearchQuery, type SearchHit } from '../api/search-queries';
import { SearchHitItem } from './search-hit-item';

interface Props {
  word: string;
  onOpen: (hit: SearchHit) => void;
}

/** The hits of one word, newest first; the next page loads when the end is scrolled to. */
export function SearchResults({ word, onOpen }: Props) {
  const { t } = useTranslation('search');
  const { data, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useInfiniteQuery(messageSearchQuery(word));
  const hits = useMemo(() => data?.pages.flatMap((p) => p.list) ?? [], [data]);

  const renderItem = useCallback(
    (hit: SearchHit) => <SearchHitItem hit={hit} word={word} onOpen={onOpen} />,
    [word, onOpen],
  );

  if (isPending) {
    return (
      <Center h={120}>
        <Loader size="sm" />
      </Center>
    );
  }
  if (isError) return null; // the request layer has shown the error
  if (hits.length === 0) {
    // The way out is the search box above: another word.
    return (
      <Box h={200}>
        <EmptyState
          testId="message-search-empty"
          title={t('emptyTitle')}
          text={t('empty', { word })}
        />
      </Box>
    );
  }
  return (
    <div data-testid="message-search-results" style={{ height: '60vh', minHeight: 240 }}>
      <PagedVirtualList
        items={hits}
        itemKey={(h) => h.message.msg_id}
        renderItem={renderItem}
        hasNextPage={hasNextPage}
        isFetchingNextPage={isFetchingNextPage}
        fetchNextPage={fetchNextPage}
      />
    </div>
  );
}
