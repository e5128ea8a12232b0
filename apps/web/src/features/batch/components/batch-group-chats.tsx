import { useCallback } from 'react';
import { Checkbox, Loader, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Virtuoso } from 'react-virtuoso';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { customerNameOrNull } from '../../../lib/customer-name';
import { groupChatsQuery } from '../api/batch-queries';
import type { useBatchSelection } from '../hooks/use-batch-selection';

const ROW_HEIGHT = 32;
const ROWS_SHOWN = 7;

interface Props {
  groupId: number;
  keyword: string;
  /** The whole group is chosen: its chats show as chosen. */
  whole: boolean;
  selection: ReturnType<typeof useBatchSelection>;
}

/** The chats of one group, virtualised and paged as it scrolls. */
export function BatchGroupChats({ groupId, keyword, whole, selection }: Props) {
  const { t } = useTranslation('batch');
  const query = useInfiniteQuery(groupChatsQuery(groupId, keyword));
  const chats = query.data?.pages.flatMap((p) => p.account_list) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const endReached = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const chosen = selection.selection.sessions;
  const { toggleSession } = selection;

  if (query.isPending) return <Loader size="xs" ml={36} my={4} />;
  if (chats.length === 0) {
    return (
      <Text size="xs" c="dimmed" pl={36} py={4}>
        {t('noChats')}
      </Text>
    );
  }
  return (
    <Virtuoso
      style={{ height: Math.min(chats.length, ROWS_SHOWN) * ROW_HEIGHT }}
      data={chats}
      fixedItemHeight={ROW_HEIGHT}
      computeItemKey={(_, s) => s.session_id}
      endReached={endReached}
      data-testid="batch-chat-list"
      itemContent={(_, s: SessionItem) => (
        <div
          style={{ height: ROW_HEIGHT, paddingLeft: 36, display: 'flex', alignItems: 'center' }}
          data-testid="batch-chat"
          data-session-id={s.session_id}
        >
          <Checkbox
            size="xs"
            checked={whole || chosen.has(s.session_id)}
            disabled={whole}
            onChange={() => toggleSession(s)}
            label={chatLabel(s)}
            data-testid="batch-chat-check"
          />
        </div>
      )}
    />
  );
}

/** The number, and the name the seat knows the customer by (its remark, else the channel's). */
function chatLabel(s: SessionItem): string {
  const name = customerNameOrNull(s);
  return name ? `${s.receiver_phone} · ${name}` : s.receiver_phone;
}
