import { z } from 'zod';
import {
  chatMessage,
  group,
  id,
  label,
  messageFailReason,
  messageStatus,
  sessionItem,
} from './entities.js';
import { batchStatus } from './calls/messages.js';
import { teamMember, teamNote, teamPresence, teamQueue } from './calls/team.js';

/**
 * The push channel: one WebSocket per signed-in console at `REALTIME_PATH`. Pushed events
 * reuse the HTTP answers' shapes and carry the seat's monotonically increasing event `id`, so
 * the client upserts by id and, after a reconnect, resumes from the last id it saw.
 */
export const REALTIME_PATH = '/v1/seat/realtime' as const;

/**
 * Close codes of the push socket the client acts on. `SERVICE_RESTART` (RFC 6455's 1012): this
 * server instance is shutting down on purpose; reconnect at once (a load balancer sends the new
 * socket to another instance) and resume from the last event id, without the back-off.
 */
export const PUSH_CLOSE = { SERVICE_RESTART: 1012 } as const;

/** The push-event map: event type -> payload. */
export const EVENT_PAYLOADS = {
  /** A message arrived from the customer or was sent (from any console or a batch). */
  'message.created': z.object({ message: chatMessage, session: sessionItem }),
  /** A message changed (delivery status, deletion for all, ...): the whole new message. */
  'message.updated': z.object({ message: chatMessage }),
  /** A message hidden for this seat ("only for me"). */
  'message.deleted': z.object({ session_id: id, msg_id: id }),
  /** Delivery status of an outgoing message, as the platform reports it. */
  'message.status': z.object({
    session_id: id,
    msg_id: id,
    status: messageStatus,
    /** With `failed`: why, when the console has words for it (absent or null: a plain failure). */
    fail_reason: messageFailReason.nullable().optional(),
  }),
  /** A chat appeared (first contact, addSession). */
  'session.created': z.object({ session: sessionItem }),
  /** A chat changed: moved, pinned, blocked or unblocked, remark, language, read. */
  'session.updated': z.object({ session: sessionItem }),
  'session.deleted': z.object({ session_id: id }),
  /** A chat muted or unmuted by this seat (from any of its consoles): /v1/seat/chat/mute. */
  'session.muted': z.object({ session_id: id, muted: z.boolean() }),
  /**
   * Chats read at once (oneClickRead, from any console of the seat): these chats' unread
   * counts are now 0. The group list's counts come in the groups.changed that follows.
   */
  'sessions.read': z.object({ session_ids: z.array(id) }),
  /** The seat's groups or unread counts changed: the group list as getGroupList answers it. */
  'groups.changed': z.object({
    group_list: z.array(group),
    seat_one_seat_msg_count: z.number().int().nonnegative(),
    seat_two_seat_msg_count: z.number().int().nonnegative(),
    un_read_count: z.number().int().nonnegative(),
  }),
  'batch.progress': batchStatus,
  /**
   * A queue of one of the seat's team accounts changed (a chat queued, taken, handed back; a
   * member added or removed): the queue as team/queue answers it.
   */
  'team.queue': teamQueue,
  /** A team chat was given to this seat by a member or by routing (the chat itself comes as session.created). */
  'team.assigned': z.object({
    session_id: id,
    /** Who handed it; null: automatic routing or the owner. */
    from: teamMember.nullable(),
    note: teamNote.nullable(),
  }),
  /** A private note was written in a chat the seat holds. */
  'team.note': teamNote,
  /**
   * The owner created, renamed, recoloured or deleted a label (issue 35): the workspace's labels
   * as they now are. A console replaces its label list and the labels of its cached rows by id
   * (a deleted one leaves them).
   */
  'labels.changed': z.object({ labels: z.array(label) }),
} as const;

export type EventType = keyof typeof EVENT_PAYLOADS;
export type EventPayload<T extends EventType> = z.infer<(typeof EVENT_PAYLOADS)[T]>;
export const EVENT_TYPES = Object.keys(EVENT_PAYLOADS) as EventType[];

const eventId = z.number().int().positive();
const epochMs = z.number().int().nonnegative();

/** One pushed event of type `T`: its payload checked against the map above. */
const pushEventOf = <T extends EventType>(type: T) =>
  z.object({
    /** Increases by one per event of the seat; the client keeps the last it handled. */
    id: eventId,
    type: z.literal(type),
    data: EVENT_PAYLOADS[type],
    /** Epoch ms. */
    at: epochMs,
  });

/**
 * One pushed event, a union discriminated by `type`: `switch (event.type)` or a handler per
 * type narrows `event.data` with no cast. The receiver parses the wire frame with it.
 */
export const pushEvent = z.discriminatedUnion('type', [
  pushEventOf('message.created'),
  pushEventOf('message.updated'),
  pushEventOf('message.deleted'),
  pushEventOf('message.status'),
  pushEventOf('session.created'),
  pushEventOf('session.updated'),
  pushEventOf('session.deleted'),
  pushEventOf('session.muted'),
  pushEventOf('sessions.read'),
  pushEventOf('groups.changed'),
  pushEventOf('batch.progress'),
  pushEventOf('team.queue'),
  pushEventOf('team.assigned'),
  pushEventOf('team.note'),
  pushEventOf('labels.changed'),
]);
export type PushEvent = z.infer<typeof pushEvent>;
export type PushEventOf<T extends EventType> = Extract<PushEvent, { type: T }>;
// Every type of the map has its member in the union (a new event type fails to compile here).
const _everyTypeInUnion: EventType extends PushEvent['type'] ? true : never = true;
void _everyTypeInUnion;

/** True when `type` is one the map knows (an event row read back from storage). */
export function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_PAYLOADS, type);
}

/** What the server says on the socket besides events. */
export const serverFrame = z.discriminatedUnion('kind', [
  /** After authentication: the newest event id (start from here when fetching fresh). */
  z.object({
    kind: z.literal('ready'),
    last_event_id: z.number().int().nonnegative(),
    /** A `ping` comes at least this often: a client that hears nothing for longer reconnects. */
    heartbeat_ms: z.number().int().positive(),
  }),
  /** The resume point is older than the server keeps: refetch everything, then go on. */
  z.object({
    kind: z.literal('reset'),
    last_event_id: z.number().int().nonnegative(),
    heartbeat_ms: z.number().int().positive(),
  }),
  z.object({
    kind: z.literal('event'),
    id: eventId,
    type: z.enum(EVENT_TYPES as [EventType, ...EventType[]]),
    /** Checked by the receiver with `pushEvent` (the frame stays readable if a payload is not). */
    data: z.unknown(),
    at: epochMs,
  }),
  /**
   * Who is looking at a team chat (issue 35): ephemeral, never in the event log, so it carries
   * no event id and is not replayed on resume; forget it after `data.ttl_ms`.
   */
  z.object({ kind: z.literal('presence'), data: teamPresence }),
  /** The heartbeat (the server also drops sockets that do not answer WebSocket pings). */
  z.object({ kind: z.literal('ping'), at: z.number().int().nonnegative() }),
  /** The token expired or was revoked: 400002, the socket closes. */
  z.object({ kind: z.literal('error'), code: z.string(), msg: z.string() }),
]);
export type ServerFrame = z.infer<typeof serverFrame>;

/** What the client sends: its token first, then the last event id it handled (0 for none). */
export const clientHello = z.object({
  token: z.string().min(1).max(256),
  last_event_id: z.number().int().nonnegative().default(0),
});
export type ClientHello = z.input<typeof clientHello>;
