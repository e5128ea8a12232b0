import { z } from 'zod';
import { chatMessage, id, messageType, phone, sessionItem } from '../entities.js';
import {
  BATCH_TARGETS_MAX,
  CHAT_PAGE_SIZE_DEFAULT,
  CHAT_PAGE_SIZE_MAX,
  MESSAGE_TEXT_MAX,
  SEARCH_PAGE_SIZE_DEFAULT,
  SEARCH_PAGE_SIZE_MAX,
  SEARCH_WORD_MIN,
} from '../limits.js';

/**
 * Newest page first; pass the oldest `msg_id` held as `before_id` for the next older page.
 * `after_id` pages towards newer messages, and `around_id` returns a window centred on one
 * message (a search hit) with its older and newer neighbours. At most one of the three.
 */
export const getChatRecordRequest = z
  .object({
    receiver_phone: phone,
    send_phone: phone,
    group_id: id.optional(),
    before_id: id.optional(),
    after_id: id.optional(),
    around_id: id.optional(),
    page_size: z.number().int().min(1).max(CHAT_PAGE_SIZE_MAX).default(CHAT_PAGE_SIZE_DEFAULT),
  })
  .superRefine((v, ctx) => {
    const anchors = (['before_id', 'after_id', 'around_id'] as const).filter(
      (k) => v[k] !== undefined,
    );
    if (anchors.length > 1) {
      ctx.addIssue({ code: 'custom', path: [anchors[1]!], message: 'only one anchor at a time' });
    }
  });
export const getChatRecordResponse = z.object({
  /** Oldest first within the page. */
  list: z.array(chatMessage),
  /** Older messages exist before the first one of `list`. */
  has_more: z.boolean(),
  /** Newer messages exist after the last one of `list` (false for the newest page). */
  has_newer: z.boolean(),
});

/** A client-chosen id (8-64 characters); the server stores a message once per id. */
export const clientMsgId = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

export const messageRequest = z
  .object({
    send_phone: phone,
    receiver_phone: phone,
    type: messageType.default('text'),
    /**
     * The text, or the caption of a media message. Defaults to empty: clients strip empty
     * fields before sending (spec section 5), so a media message without a caption has none.
     */
    content: z.string().max(MESSAGE_TEXT_MAX).default(''),
    /** The operator's words before translation (outgoing translation); the customer gets `content`. */
    original_content: z.string().max(MESSAGE_TEXT_MAX).optional(),
    /** Uploaded media for image, audio, video and file messages. */
    media_id: z.string().max(128).optional(),
    client_msg_id: clientMsgId,
    /**
     * A reply: the `msg_id` of a message of the same chat, shown to both sides as a quote above
     * the new one (another chat's, a hidden or a retracted message: 100001 naming `reply_to`).
     */
    reply_to: id.optional(),
    /**
     * Team accounts: send even though another member replied to this customer less than
     * TEAM_REPLY_CONFIRM_MS ago (without it: 409005, nothing sent). Ignored elsewhere.
     */
    confirmed: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'text' && v.content.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'required' });
    }
    if (v.type !== 'text' && !v.media_id) {
      ctx.addIssue({ code: 'custom', path: ['media_id'], message: 'required' });
    }
  });
export const messageResponse = chatMessage;

/**
 * One message to many chats: the chosen chats and/or every chat of whole groups. Sent by the
 * server at a safe pace; the same `batch_id` is one batch (a repeated request answers its
 * status and sends nothing again; the same `batch_id` with another payload answers 500002).
 * Text needs content; media needs `media_id` (a material's media may be used).
 */
export const batchMessageRequest = z
  .object({
    batch_id: clientMsgId,
    session_ids: z.array(id).max(BATCH_TARGETS_MAX).default([]),
    group_ids: z.array(id).max(100).default([]),
    type: messageType.default('text'),
    content: z.string().max(MESSAGE_TEXT_MAX).default(''),
    media_id: z.string().max(128).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.session_ids.length === 0 && v.group_ids.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['session_ids'], message: 'required' });
    }
    if (v.type === 'text' && v.content.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'required' });
    }
    if (v.type !== 'text' && !v.media_id) {
      ctx.addIssue({ code: 'custom', path: ['media_id'], message: 'required' });
    }
  });

export const batchItemStatus = z.enum(['pending', 'sent', 'failed']);
export const batchStatus = z.object({
  batch_id: z.string(),
  /** Chats targeted (after expanding groups and dropping duplicates). */
  total: z.number().int().nonnegative(),
  sent: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Every chat has been tried. */
  done: z.boolean(),
  created_at: z.number().int().nonnegative(),
  /** Per-chat result; `code` is '000000' when sent, else the error code (e.g. a blocked chat). */
  results: z.array(
    z.object({
      session_id: id,
      receiver_phone: z.string(),
      status: batchItemStatus,
      msg_id: id.nullable(),
      code: z.string().nullable(),
    }),
  ),
});
export type BatchStatus = z.infer<typeof batchStatus>;
export const batchMessageResponse = batchStatus;

export const batchStatusRequest = z.object({ batch_id: clientMsgId });
export const batchStatusResponse = batchStatus;

/** Messages of all the seat's chats containing `keyword` (at least 6 characters), newest first. */
export const searchMessageRequest = z.object({
  keyword: z.string().trim().min(SEARCH_WORD_MIN, 'too short').max(200),
  page_size: z.number().int().min(1).max(SEARCH_PAGE_SIZE_MAX).default(SEARCH_PAGE_SIZE_DEFAULT),
  /** Opaque cursor from the previous page's `next_cursor`. */
  cursor: z.string().max(200).optional(),
});
export const searchMessageResponse = z.object({
  list: z.array(z.object({ message: chatMessage, session: sessionItem })),
  next_cursor: z.string().nullable(),
});

export const delMessageRequest = z.object({
  msg_id: id,
  /** 'me' hides it for this seat; 'all' also retracts it on the platform. */
  scope: z.enum(['me', 'all']),
});
export const delMessageResponse = z.object({ msg_id: id, scope: z.enum(['me', 'all']) });
