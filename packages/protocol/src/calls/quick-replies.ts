import { z } from 'zod';
import { id } from '../entities.js';
import { MESSAGE_TEXT_MAX } from '../limits.js';

export const quickReplyKind = z.enum(['text', 'image', 'audio']);
export const quickReply = z.object({
  id,
  kind: quickReplyKind,
  name: z.string(),
  content: z.string(),
  media_id: z.string().nullable(),
  media_url: z.string().nullable(),
  updated_at: z.number().int(),
});
export type QuickReply = z.infer<typeof quickReply>;

export const quickReplyListRequest = z.object({});
export const quickReplyListResponse = z.object({ list: z.array(quickReply) });

const fields = {
  kind: quickReplyKind,
  name: z.string().trim().min(1, 'required').max(100),
  content: z.string().trim().min(1, 'required').max(MESSAGE_TEXT_MAX),
  media_id: z.string().max(128).optional(),
};
export const quickReplyDoTypeRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('add'), ...fields }),
  z.object({ type: z.literal('edit'), id, ...fields }),
  z.object({ type: z.literal('del'), id }),
]);
export const quickReplyDoTypeResponse = z.object({ item: quickReply.nullable(), id });
