import { useQuery, type QueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** The seat's muted chats (not notified), kept in step by the push's session.muted. */
export const mutedChatsKey = ['mutedChats'] as const;

const EMPTY: ReadonlySet<number> = new Set();
// One function for every render: TanStack Query then keeps the same Set while the answer is
// the same (a new Set per render would re-render every row, forever).
const toSet = (d: { session_ids: number[] }): ReadonlySet<number> => new Set(d.session_ids);

/** The muted chats' ids (empty until the first answer). */
export function useMutedChats(): ReadonlySet<number> {
  const { data } = useQuery({
    queryKey: mutedChatsKey,
    queryFn: ({ signal }) => callApi('/v1/seat/chat/mutedChats', {}, { signal, notify: false }),
    select: toSet,
    staleTime: Infinity,
  });
  return data ?? EMPTY;
}

export function muteChat(session_id: number, muted: boolean) {
  return callApi('/v1/seat/chat/mute', { session_id, muted });
}

/** A chat muted or unmuted (this console's answer, or another console's push). */
export function applyMuted(qc: QueryClient, sessionId: number, muted: boolean): void {
  qc.setQueryData<{ session_ids: number[] }>(mutedChatsKey, (old) => {
    if (!old) return old;
    const rest = old.session_ids.filter((id) => id !== sessionId);
    return { session_ids: muted ? [...rest, sessionId] : rest };
  });
}
