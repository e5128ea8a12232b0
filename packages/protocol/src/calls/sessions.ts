import { z } from 'zod';
import { groupType, id, phone, sessionItem } from '../entities.js';
import {
  ADDRESS_BOOK_PAGE_SIZE_DEFAULT,
  ADDRESS_BOOK_PAGE_SIZE_MAX,
  MESSAGE_TEXT_MAX,
  REMARK_MAX,
  SESSION_PAGE_SIZE_DEFAULT,
  SESSION_PAGE_SIZE_MAX,
} from '../limits.js';
import { replyFilter } from './groups.js';
import { chatMessage } from '../entities.js';
import { whatsappTemplateSend } from './whatsapp.js';

export const userTimeType = z.union([z.literal(1), z.literal(2)]);

/** The user list of a group: pinned first, then latest activity; keyset-paged by `cursor`. */
export const getGroupInfoRequest = z.object({
  group_id: id,
  reply: replyFilter.default(0),
  user_time_type: userTimeType.default(1),
  page_size: z.number().int().min(1).max(SESSION_PAGE_SIZE_MAX).default(SESSION_PAGE_SIZE_DEFAULT),
  /** Opaque cursor from the previous page's `next_cursor`. */
  cursor: z.string().max(200).optional(),
  /** Filters by customer number, remark or the channel’s name of the customer (substring). */
  keyword: z.string().trim().max(64).optional(),
  /** Only the chats whose customer has this label (issue 35); an unknown label: none. */
  label_id: id.optional(),
});
export const getGroupInfoResponse = z.object({
  account_list: z.array(sessionItem),
  /** All chats matching the filters, not only this page. */
  total: z.number().int().nonnegative(),
  next_cursor: z.string().nullable(),
});

const sessionRef = z.object({ session_id: id });

export const delSessionRequest = sessionRef;
export const delSessionResponse = z.object({ session_id: id });

export const addSessionRequest = z
  .object({
    send_phone: phone,
    receiver_phone: phone,
    /**
     * The greeting sent as the first message (spec: asked for when adding a chat). For an
     * account on WhatsApp, which accepts only a template from a business to someone who has
     * not written in 24 hours, `template` instead (a greeting text there: 100001, reason
     * `whatsapp_template_required`).
     */
    greeting: z.string().trim().min(1, 'required').max(MESSAGE_TEXT_MAX).optional(),
    /** WhatsApp only: the greeting as an approved template (as /v1/seat/wa/sendTemplate sends it). */
    template: whatsappTemplateSend.optional(),
    client_msg_id: z.string().min(8).max(64),
  })
  .superRefine((v, ctx) => {
    if (v.greeting === undefined && v.template === undefined) {
      ctx.addIssue({ code: 'custom', path: ['greeting'], message: 'required' });
    }
    if (v.greeting !== undefined && v.template !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['template'], message: 'either greeting or template' });
    }
  });
export const addSessionResponse = z.object({ session: sessionItem, message: chatMessage });

export const moveSessionGroupRequest = z.object({ session_id: id, group_id: id });
export const moveSessionGroupResponse = sessionItem;

export const sessionDoTopRequest = z.object({ session_id: id, is_top: z.boolean() });
export const sessionDoTopResponse = sessionItem;

/** The client chooses /block or /unblock by a `type` field it removes from the body. */
export const blockRequest = sessionRef;
export const blockResponse = sessionItem;
export const unblockRequest = sessionRef;
export const unblockResponse = sessionItem;

/**
 * Mark a chat unread: its unread count becomes at least 1 (one already unread keeps its count),
 * and its group's count, the time tab's and the total follow. Opening it reads it as usual.
 */
export const markUnreadRequest = sessionRef;
export const markUnreadResponse = sessionItem;

/**
 * Mute or unmute one of the seat's chats: a muted chat's customer messages are not notified
 * (Web Push). Per seat and chat, so each seat sharing a chat keeps its own choice. Setting the
 * state it has already is answered as it is.
 */
export const muteRequest = z.object({ session_id: id, muted: z.boolean() });
export const muteResponse = z.object({ session_id: id, muted: z.boolean() });

/** The seat's muted chats (the console marks their rows). */
export const mutedChatsRequest = z.object({});
export const mutedChatsResponse = z.object({ session_ids: z.array(id) });

export const setRemarkRequest = z.object({
  session_id: id,
  remark: z.string().trim().max(REMARK_MAX),
});
export const setRemarkResponse = z.object({ session_id: id, remark: z.string() });
export const getRemarkRequest = sessionRef;
export const getRemarkResponse = setRemarkResponse;

/**
 * The address book: every customer the seat chats with, across its accounts (one entry per
 * chat), ordered by customer number; searchable by number, remark or name; keyset-paged.
 */
export const addressBookRequest = z.object({
  keyword: z.string().trim().max(64).optional(),
  page_size: z
    .number()
    .int()
    .min(1)
    .max(ADDRESS_BOOK_PAGE_SIZE_MAX)
    .default(ADDRESS_BOOK_PAGE_SIZE_DEFAULT),
  cursor: z.string().max(200).optional(),
  /** Only this chat, if it is the seat's (a chat's link: the console's `?chat=` resolves it). */
  session_id: id.optional(),
});
export const addressBookEntry = sessionItem.extend({
  group_name: z.string(),
  group_type: groupType,
});
export type AddressBookEntry = z.infer<typeof addressBookEntry>;
export const addressBookResponse = z.object({
  list: z.array(addressBookEntry),
  total: z.number().int().nonnegative(),
  next_cursor: z.string().nullable(),
});
