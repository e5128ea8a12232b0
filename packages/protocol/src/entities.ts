import { z } from 'zod';
import { channelName } from './channels.js';
import { epochMs, id } from './scalars.js';
import { GROUP_NAME_MAX, LABEL_NAME_MAX } from './limits.js';
import { MESSAGE_DIRECTIONS, MESSAGE_TYPES } from './message-values.js';

/**
 * Ids are positive integers that fit PostgreSQL's `integer` (and SQLite's rowid); times are
 * Unix epoch milliseconds up to the end of year 9999, which every browser's Date can show.
 */
export { EPOCH_MS_MAX, ID_MAX, epochMs, id, queryEpochMs, queryId } from './scalars.js';

/** A phone account or customer number: digits, optional leading +, 5-20 digits. */
export const PHONE_PATTERN = /^\+?[0-9]{5,20}$/;
export const phone = z.string().trim().regex(PHONE_PATTERN, 'invalid phone number format');

export const BUILT_IN_GROUPS = ['ungrouped', 'blocked', 'tg_link_pushed'] as const;
export type BuiltInGroup = (typeof BUILT_IN_GROUPS)[number];
/** The spec's names of the built-in groups (the UI translates them by `group_type`). */
export const BUILT_IN_GROUP_NAMES: Record<BuiltInGroup, string> = {
  ungrouped: 'Ungrouped',
  blocked: 'Blocked',
  tg_link_pushed: 'TG link pushed',
};
export const groupType = z.enum(['custom', ...BUILT_IN_GROUPS]);
export type GroupType = z.infer<typeof groupType>;

export const groupName = z.string().trim().min(1, 'required').max(GROUP_NAME_MAX);

export const group = z.object({
  group_id: id,
  group_name: z.string(),
  group_type: groupType,
  /** Unread messages in the group's chats (reply filter applied). */
  un_read: z.number().int().nonnegative(),
  /** The Blocked group is disabled: its chats cannot be written to. */
  disabled: z.boolean(),
  /**
   * The group's chats in each time tab (getGroupInfo's `total` for user_time_type 1 and 2,
   * reply filter applied), in the group list and groups.changed: a console keeps the totals of
   * its cached user lists exact from them. Absent from a server without them (an instance of
   * the previous release, in a rolling restart) and in doGroup's answer.
   */
  total_recent: z.number().int().nonnegative().optional(),
  total_earlier: z.number().int().nonnegative().optional(),
});
export type Group = z.infer<typeof group>;

export const messageType = z.enum(MESSAGE_TYPES);
export type MessageType = z.infer<typeof messageType>;
export const messageDirection = z.enum(MESSAGE_DIRECTIONS);
export const messageStatus = z.enum(['pending', 'sent', 'delivered', 'read', 'failed']);
export type MessageStatus = z.infer<typeof messageStatus>;
/**
 * Why a channel refused an operator's message for good, when the console has words for it
 * (a failure without one shows the usual failed mark): `whatsapp_window`, WhatsApp's 24-hour
 * window had closed (error 131047: only a template is accepted).
 */
export const messageFailReason = z.enum(['whatsapp_window']);
export type MessageFailReason = z.infer<typeof messageFailReason>;

export const media = z.object({
  media_id: z.string(),
  url: z.string(),
  thumb_url: z.string().nullable(),
  mime: z.string(),
  size: z.number().int().nonnegative(),
  file_name: z.string(),
  duration_ms: z.number().int().nonnegative().nullable(),
  width: z.number().int().nonnegative().nullable(),
  height: z.number().int().nonnegative().nullable(),
});
export type Media = z.infer<typeof media>;

export const lastMessage = z.object({
  type: messageType,
  direction: messageDirection,
  /**
   * The message's own words on one line (at most 100 characters): a text's text, a file's name,
   * another media's caption (often empty). Never a placeholder: a client labels media by `type`.
   */
  preview: z.string(),
  created_at: epochMs,
});

/**
 * The colours a label may have (issue 35): a fixed palette, so every console draws them alike
 * and a name is never a CSS value. A client maps each to its own shade.
 */
export const LABEL_COLORS = [
  'gray',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'blue',
  'violet',
  'pink',
] as const;
export const labelColor = z.enum(LABEL_COLORS);
export type LabelColor = z.infer<typeof labelColor>;

/**
 * A label's name: trimmed, 1 to LABEL_NAME_MAX characters, no control characters (a NUL is not
 * text, and PostgreSQL cannot store it). Shown as text everywhere, never as markup.
 */
export const labelName = z
  .string()
  .trim()
  .min(1, 'required')
  .max(LABEL_NAME_MAX)
  // eslint-disable-next-line no-control-regex
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'control characters are not allowed');

/** A label the owner defined (issue 35), as a chat row and the label lists show it. */
export const label = z.object({
  label_id: id,
  name: z.string(),
  color: labelColor,
});
export type Label = z.infer<typeof label>;

/** Account/session item of the spec: one chat between a seat's phone account and a customer. */
export const sessionItem = z.object({
  session_id: id,
  send_phone: z.string(),
  receiver_phone: z.string(),
  un_read_count: z.number().int().nonnegative(),
  add_time: epochMs,
  latest_time: epochMs,
  group_id: id,
  is_top: z.boolean(),
  remark: z.string(),
  blocked: z.boolean(),
  /**
   * The name the customer's channel gives them (a Telegram profile's first and last name, the
   * platform's `name`); null when none was given. A client shows the remark, else this name,
   * else the number.
   */
  customer_name: z.string().nullable(),
  /**
   * The channel's photo of the customer (a signed media URL, like a message's; it expires at
   * the end of the next UTC day); null: none, a client draws the initials.
   */
  avatar_url: z.string().nullable(),
  /** user_time_type the chat falls in: 1 active in the last 24 hours, 2 earlier. */
  user_time_type: z.union([z.literal(1), z.literal(2)]),
  /** The customer's language for translation (null until set). */
  customer_language: z.string().nullable(),
  last_message: lastMessage.nullable(),
  /**
   * Whether free text is accepted in this chat at the answer's time (its channel's reply window,
   * `CHANNELS[...].abilities.replyWindowHours`). false: only an approved template goes (the
   * customer has not written within the window).
   */
  can_reply: z.boolean(),
  /**
   * When free text stops being accepted (the customer's last message + the channel's window);
   * null when the channel has no reply window, or the customer has not written within one
   * (then `can_reply` is false). A client compares it with its clock: the window closes with
   * time alone, while a list answer is kept.
   */
  reply_until: epochMs.nullable(),
  /**
   * The labels on the chat's customer, by name (issue 35). Always in getGroupInfo's rows and in
   * session.created / session.updated; absent from the other pushes of a chat (a message's), where
   * a client keeps the labels it has.
   */
  labels: z.array(label).optional(),
});
export type SessionItem = z.infer<typeof sessionItem>;

/**
 * What a reply shows of the message it quotes, as it was when the reply was written: its
 * direction, type and one-line preview (a text's words, a file's name, a media's caption).
 * `deleted`: the quoted message was retracted since (shown as "deleted message", no preview).
 */
export const messageQuote = z.object({
  msg_id: id,
  direction: messageDirection,
  type: messageType,
  preview: z.string(),
  deleted: z.boolean(),
});
export type MessageQuote = z.infer<typeof messageQuote>;

export const chatMessage = z.object({
  msg_id: id,
  session_id: id,
  /** The sender's id for idempotent sending (null for customer messages). */
  client_msg_id: z.string().nullable(),
  direction: messageDirection,
  type: messageType,
  /** Text of a text message; caption (may be empty) of a media message. */
  content: z.string(),
  /** What the operator wrote before it was translated into `content` (null when not translated). */
  original_content: z.string().nullable(),
  media: media.nullable(),
  status: messageStatus,
  /** Why it failed, when known (null otherwise, and while it has not failed). */
  fail_reason: messageFailReason.nullable(),
  created_at: epochMs,
  /** Deleted for all: the content is withheld. */
  deleted: z.boolean(),
  /** The message of the same chat this one replies to (null: not a reply). */
  reply_to: id.nullable(),
  /** What the reply shows of it (null exactly when `reply_to` is). */
  quote: messageQuote.nullable(),
  /**
   * The customer's current reaction to this message (an emoji, theirs or the operator's
   * message); null: none, or removed. Fed by the channels that carry reactions (WhatsApp).
   */
  reaction: z.string().nullable(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const phoneAccount = z.object({
  send_phone: z.string(),
  label: z.string(),
  channel: channelName,
});
export type PhoneAccount = z.infer<typeof phoneAccount>;

/** Login response user info: the token plus the seat's profile. */
export const userInfo = z.object({
  token: z.string(),
  seat_id: id,
  account: z.string(),
  nickname: z.string(),
  /** The accounts the seat writes from: its own, and the team accounts it is a member of. */
  phone_accounts: z.array(phoneAccount),
  /** When the token stops working (epoch ms). */
  expires_at: epochMs,
});
export type UserInfo = z.infer<typeof userInfo>;
