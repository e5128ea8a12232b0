import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Label, SessionItem, TeamNote, TeamQueue } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

/**
 * Team accounts (issue 35): the queues of the seat's teams, a chat's members and holder, and
 * its private notes. The queues are read once and then kept by the pushed `team.queue` events.
 */
export const teamKeys = {
  queues: ['teamQueues'] as const,
  members: (sessionId: number) => ['teamMembers', sessionId] as const,
  notes: (sessionId: number) => ['teamNotes', sessionId] as const,
  record: (sessionId: number) => ['teamChatRecord', sessionId] as const,
};

/**
 * A queued chat's messages, read before taking it (team/chatRecord): the newest page, read
 * again when the queue says the chat changed (`latestTime`, from the pushed `team.queue`).
 */
export function teamChatRecordQuery(sessionId: number, latestTime: number) {
  return queryOptions({
    queryKey: [...teamKeys.record(sessionId), latestTime] as const,
    queryFn: ({ signal }) =>
      callApi('/v1/seat/team/chatRecord', { session_id: sessionId }, { signal, notify: false }),
    staleTime: Infinity,
  });
}

export function teamQueuesQuery() {
  return queryOptions({
    queryKey: teamKeys.queues,
    queryFn: ({ signal }) => callApi('/v1/seat/team/queue', { page_size: 50 }, { signal }),
    staleTime: Infinity,
  });
}

export function teamMembersQuery(sessionId: number) {
  return queryOptions({
    queryKey: teamKeys.members(sessionId),
    queryFn: ({ signal }) =>
      callApi('/v1/seat/team/members', { session_id: sessionId }, { signal, notify: false }),
    staleTime: 30_000,
  });
}

export function teamNotesQuery(sessionId: number) {
  return queryOptions({
    queryKey: teamKeys.notes(sessionId),
    queryFn: ({ signal }) =>
      callApi('/v1/seat/team/notes', { session_id: sessionId }, { signal, notify: false }),
    staleTime: Infinity,
  });
}

/** A pushed queue replaces its team's in the cached answer (a new team: read them all again). */
export function applyTeamQueue(qc: QueryClient, queue: TeamQueue): void {
  const key = teamQueuesQuery().queryKey;
  const data = qc.getQueryData(key);
  if (!data?.teams.some((t) => t.account_id === queue.account_id)) {
    void qc.invalidateQueries({ queryKey: teamKeys.queues });
    return;
  }
  qc.setQueryData(key, {
    teams: data.teams.map((t) => (t.account_id === queue.account_id ? queue : t)),
  });
}

/** The owner changed the labels (labels.changed): each cached queue row's, by id, as the list's. */
export function applyLabelsToQueues(
  qc: QueryClient,
  relabel: (labels: readonly Label[]) => Label[],
): void {
  qc.setQueryData(teamQueuesQuery().queryKey, (data) =>
    data
      ? {
          teams: data.teams.map((t) => ({
            ...t,
            chats: t.chats.map((c) =>
              c.labels.length > 0 ? { ...c, labels: relabel(c.labels) } : c,
            ),
          })),
        }
      : data,
  );
}

/** A pushed note joins its chat's notes, once (the writer's own answer may be there first). */
export function applyTeamNote(qc: QueryClient, note: TeamNote): void {
  qc.setQueryData(teamNotesQuery(note.session_id).queryKey, (old) => {
    if (!old) return old;
    if (old.notes.some((n) => n.note_id === note.note_id)) return old;
    return { notes: [...old.notes, note] };
  });
}

/** Whether a chat of the seat's list is on one of its team accounts (by the account's number). */
export function isTeamChat(qc: QueryClient, user: Pick<SessionItem, 'send_phone'>): boolean {
  const data = qc.getQueryData(teamQueuesQuery().queryKey);
  return data?.teams.some((t) => t.send_phone === user.send_phone) ?? false;
}

export function takeChat(sessionId: number) {
  return callApi('/v1/seat/team/take', { session_id: sessionId });
}

export function handOver(sessionId: number, toSeatId: number, note: string) {
  return callApi(
    '/v1/seat/team/handOver',
    { session_id: sessionId, to_seat_id: toSeatId, note: note.trim() || undefined },
    { notify: false },
  );
}

export function backToQueue(sessionId: number) {
  return callApi('/v1/seat/team/backToQueue', { session_id: sessionId });
}

export function addNote(sessionId: number, content: string) {
  return callApi('/v1/seat/team/addNote', { session_id: sessionId, content }, { notify: false });
}
