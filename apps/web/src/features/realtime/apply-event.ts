import type { QueryClient } from '@tanstack/react-query';
import type { EventPayload, EventType, PushEvent } from '@parley/protocol';
import { applyMuted } from '../sessions/api/muted-chats';
import { patchMessage, removeMessage, upsertMessage } from '../messages/api/message-cache';
import {
  applyGroupsChanged,
  applySessionRemoved,
  applySessionsRead,
  applySessionUpdate,
} from '../sessions/api/session-cache';
import { applyTeamNote, applyTeamQueue } from '../team/api/team-api';
import { applyLabelsChanged } from '../labels/api/labels-api';

// A push carries the whole change: the chat is placed in the cached lists, and the group
// list's counts come in their own event (groups.changed) when they change. Nothing is refetched.
const PUSHED = { refetchGroups: false, refetchSessions: false };

/** What the console does besides the caches (the open chat's reading, the attention). */
export interface EventEffects {
  onCustomerMessage(data: EventPayload<'message.created'>): void;
  /** A team chat was handed to this seat: the console tells the operator at once. */
  onTeamAssigned?(data: EventPayload<'team.assigned'>): void;
}

type Handlers = {
  [T in EventType]: (qc: QueryClient, data: EventPayload<T>, effects: EventEffects) => void;
};

/** One small handler per pushed event type, each given its own payload's type. */
const handlers: Handlers = {
  'message.created': (qc, data, effects) => {
    upsertMessage(qc, data.message);
    applySessionUpdate(qc, data.session, PUSHED);
    if (data.message.direction === 'in') effects.onCustomerMessage(data);
  },
  'message.updated': (qc, { message }) => {
    // The whole new message replaces the held one (replaceMessage merges it as a patch).
    patchMessage(qc, message.session_id, message.msg_id, message);
  },
  'message.status': (qc, { session_id, msg_id, status, fail_reason }) =>
    patchMessage(qc, session_id, msg_id, { status, fail_reason: fail_reason ?? null }),
  'message.deleted': (qc, { session_id, msg_id }) => removeMessage(qc, session_id, msg_id),
  'session.created': (qc, { session }) => applySessionUpdate(qc, session, PUSHED),
  'session.updated': (qc, { session }) => applySessionUpdate(qc, session, PUSHED),
  'session.deleted': (qc, { session_id }) => applySessionRemoved(qc, session_id, PUSHED),
  'session.muted': (qc, { session_id, muted }) => applyMuted(qc, session_id, muted),
  'sessions.read': (qc, { session_ids }) => applySessionsRead(qc, session_ids),
  'groups.changed': (qc, data) => applyGroupsChanged(qc, data),
  'batch.progress': (qc, data) => {
    qc.setQueryData(['batchStatus', data.batch_id], data);
  },
  // Team accounts (issue 35): the Queue place's counts and the chat's notes; the chats
  // themselves come as session.created / session.deleted.
  'team.queue': (qc, queue) => applyTeamQueue(qc, queue),
  'team.assigned': (_qc, data, effects) => effects.onTeamAssigned?.(data),
  'team.note': (qc, note) => applyTeamNote(qc, note),
  // Labels (issue 35): the owner's change renames, recolours or removes them in every row.
  'labels.changed': (qc, { labels }) => applyLabelsChanged(qc, labels),
};

// Generic over the type, so that `handlers[type]` and `data` stay paired (no cast).
function dispatch<T extends EventType>(
  qc: QueryClient,
  type: T,
  data: EventPayload<T>,
  effects: EventEffects,
): void {
  handlers[type](qc, data, effects);
}

/**
 * Upserts one pushed event into the TanStack Query caches, by id: a message already held (the
 * outbox's own answer, a refetch) is not added twice, and a local insert is hidden by its
 * client_msg_id as soon as the server's copy is in the record.
 */
export function applyEvent(qc: QueryClient, event: PushEvent, effects: EventEffects): void {
  dispatch(qc, event.type, event.data, effects);
}
