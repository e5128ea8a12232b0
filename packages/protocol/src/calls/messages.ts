import { z } from 'zod';
import { chatMessage, id, messageType, phone } from '../entities.js';
import { CHAT_PAGE_SIZE_DEFAULT, CHAT_PAGE_SIZE_MAX, MESSAGE_TEXT_MAX } from '../limits.js';

/** Newest page first; pass the oldest `msg_id` held as `before_id` for the next older page. */
export const getChatRecordRequest = z.object({
  receiver_phone: phone,
  send_phone: phone,
  group_id: id.optional(),
  before_id: id.optional(),
  page_size: z.number().int().min(1).max(CHAT_PAGE_SIZE_MAX).default(CHAT_PAGE_SIZE_DEFAULT),
});
export const getChatRecordResponse = z.object({
  /** Oldest first within the page. */
  list: z.array(chatMessage),
  has_more: z.boolean(),
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
    content: z.string().max(MESSAGE_TEXT_MAX),
    /** Uploaded media for image, audio, video and file messages. */
    media_id: z.string().max(128).optional(),
    client_msg_id: clientMsgId,
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

export const batchMessageRequest = z.object({
  batch_id: clientMsgId,
  session_ids: z.array(id).min(1, 'required').max(5000),
  type: messageType.default('text'),
  content: z.string().max(MESSAGE_TEXT_MAX),
  media_id: z.string().max(128).optional(),
});
export const batchMessageResponse = z.object({
  batch_id: z.string(),
  total: z.number().int().nonnegative(),
  results: z.array(
    z.object({ session_id: id, msg_id: id.nullable(), ok: z.boolean(), code: z.string() }),
  ),
});

export const delMessageRequest = z.object({
  msg_id: id,
  /** 'me' hides it for this seat; 'all' also retracts it on the platform. */
  scope: z.enum(['me', 'all']),
});
export const delMessageResponse = z.object({ msg_id: id, scope: z.enum(['me', 'all']) });
