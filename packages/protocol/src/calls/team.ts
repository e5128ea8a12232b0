import { z } from 'zod';
import { chatMessage, epochMs, id, label, lastMessage, sessionItem } from '../entities.js';
import {
  CHAT_PAGE_SIZE_DEFAULT,
  CHAT_PAGE_SIZE_MAX,
  TEAM_NOTE_MAX,
  TEAM_QUEUE_PAGE_MAX,
} from '../limits.js';

/**
 * Team accounts (issue 35; docs/decisions/2026-11-29-team-accounts.md): a phone account staffed
 * by several seats. Each of its chats is held by one member or waits in the account's queue. A
 * seat reaches a chat through these calls only if it holds it, or the chat waits in the queue of
 * a team the seat is a member of; any other chat answers 400001, as one that does not exist.
 */
export const teamRouting = z.enum(['manual', 'automatic']);
export type TeamRouting = z.infer<typeof teamRouting>;

/** A member as the others see it. */
export const teamMember = z.object({
  seat_id: id,
  nickname: z.string(),
  online: z.boolean(),
  frozen: z.boolean(),
});

/** A private note of a chat: shown to the team's members and the owner, never sent. */
export const teamNote = z.object({
  note_id: id,
  session_id: id,
  /** `handover`: written with a hand-over or a return to the queue. */
  kind: z.enum(['note', 'handover']),
  /** The writer's nickname (a seat), or the administrator's name. */
  author: z.string(),
  /** The writer's seat; null for the owner. */
  author_seat_id: id.nullable(),
  content: z.string(),
  created_at: epochMs,
});
export type TeamNote = z.infer<typeof teamNote>;

/** A chat waiting in a queue. */
export const queuedChat = z.object({
  session_id: id,
  send_phone: z.string(),
  receiver_phone: z.string(),
  customer_name: z.string().nullable(),
  un_read_count: z.number().int().nonnegative(),
  latest_time: epochMs,
  /** When it entered the queue. */
  since: epochMs,
  last_message: lastMessage.nullable(),
  /** The labels on the chat's customer, by name (as getGroupInfo's rows carry them). */
  labels: z.array(label),
});

/** One team account's queue as a member sees it. */
export const teamQueue = z.object({
  account_id: id,
  send_phone: z.string(),
  label: z.string(),
  routing: teamRouting,
  /** Chats waiting. */
  count: z.number().int().nonnegative(),
  /** When the chat waiting longest entered the queue; null when none waits. */
  oldest_since: epochMs.nullable(),
  /** The chats waiting longest first (at most TEAM_QUEUE_PAGE_MAX). */
  chats: z.array(queuedChat),
});
export type TeamQueue = z.infer<typeof teamQueue>;

const sessionRef = z.object({ session_id: id });
const optionalNote = z.string().trim().max(TEAM_NOTE_MAX).optional();

export const teamQueueRequest = z.object({
  page_size: z.number().int().min(1).max(TEAM_QUEUE_PAGE_MAX).default(TEAM_QUEUE_PAGE_MAX),
});
export const teamQueueResponse = z.object({ teams: z.array(teamQueue) });

export const teamTakeRequest = sessionRef;
/** The chat as the seat's list now has it (in its Ungrouped group). */
export const teamTakeResponse = sessionItem;

export const teamHandOverRequest = z.object({
  session_id: id,
  /** A member of the chat's team (not frozen). */
  to_seat_id: id,
  note: optionalNote,
});
export const teamHandOverResponse = z.object({ session_id: id, holder: teamMember });

export const teamBackToQueueRequest = z.object({ session_id: id, note: optionalNote });
export const teamBackToQueueResponse = z.object({ session_id: id });

export const teamMembersRequest = sessionRef;
export const teamMembersResponse = z.object({
  account_id: id,
  /** Who holds the chat; null while it waits in the queue. */
  holder: teamMember.nullable(),
  members: z.array(teamMember),
});

export const teamAddNoteRequest = z.object({
  session_id: id,
  content: z.string().trim().min(1).max(TEAM_NOTE_MAX),
});
export const teamAddNoteResponse = teamNote;

export const teamNotesRequest = sessionRef;
export const teamNotesResponse = z.object({ notes: z.array(teamNote) });

export const teamSearchNotesRequest = z.object({
  keyword: z.string().trim().min(1).max(200),
});
/** Notes of the chats the seat may see, newest first (at most 50). */
export const teamSearchNotesResponse = z.object({ notes: z.array(teamNote) });

/**
 * Who is looking (issue 35): a member's console says it shows a team chat (`viewing`, again
 * every TEAM_VIEWING_EVERY_MS), that its operator types in it (`typing`, at most every
 * TEAM_TYPING_EVERY_MS), or that it no longer shows it (`left`). Nothing is stored.
 */
export const teamPresenceState = z.enum(['viewing', 'typing', 'left']);
export type TeamPresenceState = z.infer<typeof teamPresenceState>;
export const teamPresenceRequest = z.object({ session_id: id, state: teamPresenceState });
export const teamPresenceResponse = z.object({ session_id: id });

/** What the other members' consoles are told (the socket's `presence` frame). */
export const teamPresence = z.object({
  session_id: id,
  seat_id: id,
  /** The member's display name (its seat's nickname). */
  nickname: z.string(),
  state: teamPresenceState,
  /** Forget it after this long without a word (a tab that crashed says nothing). */
  ttl_ms: z.number().int().nonnegative(),
  at: epochMs,
});
export type TeamPresence = z.infer<typeof teamPresence>;

/** `data` of 409005: the member who replied to this customer a moment ago, and when. */
export const teamRecentReply = z.object({ seat_id: id, nickname: z.string(), at: epochMs });
export type TeamRecentReply = z.infer<typeof teamRecentReply>;

/**
 * A team chat's messages (read-only), newest page first; `before_id` pages to older ones. The
 * way a member reads a chat waiting in its queue before taking it.
 */
export const teamChatRecordRequest = z.object({
  session_id: id,
  before_id: id.optional(),
  page_size: z.number().int().min(1).max(CHAT_PAGE_SIZE_MAX).default(CHAT_PAGE_SIZE_DEFAULT),
});
export const teamChatRecordResponse = z.object({
  /** Oldest first within the page. */
  list: z.array(chatMessage),
  /** Older messages exist before the first one of `list`. */
  has_more: z.boolean(),
});
