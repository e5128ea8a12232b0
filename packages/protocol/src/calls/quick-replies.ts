import { z } from 'zod';
import { id, media } from '../entities.js';
import { MESSAGE_TEXT_MAX, QUICK_REPLY_NAME_MAX } from '../limits.js';

export const quickReplyKind = z.enum(['text', 'image', 'audio']);
export const quickReply = z.object({
  id,
  kind: quickReplyKind,
  name: z.string(),
  content: z.string(),
  media_id: z.string().nullable(),
  /** The uploaded image or audio of a material (null for text). */
  media: media.nullable(),
  updated_at: z.number().int(),
});
export type QuickReply = z.infer<typeof quickReply>;

export const quickReplyListRequest = z.object({});
export const quickReplyListResponse = z.object({ list: z.array(quickReply) });

const fields = {
  kind: quickReplyKind,
  name: z.string().trim().min(1, 'required').max(QUICK_REPLY_NAME_MAX),
  content: z.string().trim().min(1, 'required').max(MESSAGE_TEXT_MAX),
  /** Required for an image or audio material (spec: it must be uploaded). */
  media_id: z.string().max(128).optional(),
};
function requireMedia(v: { kind: string; media_id?: string }, ctx: z.RefinementCtx) {
  if (v.kind !== 'text' && !v.media_id) {
    ctx.addIssue({ code: 'custom', path: ['media_id'], message: 'required' });
  }
}
export const quickReplyDoTypeRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('add'), ...fields }).superRefine(requireMedia),
  z.object({ type: z.literal('edit'), id, ...fields }).superRefine(requireMedia),
  z.object({ type: z.literal('del'), id }),
]);
export const quickReplyDoTypeResponse = z.object({ item: quickReply.nullable(), id });
