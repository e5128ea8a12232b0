import { z } from 'zod';

/**
 * The parts of a Bot API `Update` Parley reads (https://core.telegram.org/bots/api#update,
 * Bot API 7.x), parsed update by update: one that does not fit is refused alone (logged and
 * counted) and the bot's next updates still come. Unknown keys are dropped.
 */
// eslint-disable-next-line no-control-regex
const NO_CONTROL = /^[^\u0000-\u001f]+$/;
// eslint-disable-next-line no-control-regex
const NO_NUL = /^[^\u0000]*$/;
const fileId = z.string().min(1).max(256).regex(NO_CONTROL);

/** A name or code as Telegram gives it: PostgreSQL stores no NUL (and no name has one). */
const plain = z.string().regex(NO_NUL);

const fileRef = z.object({
  file_id: fileId,
  file_unique_id: z.string().max(256),
  file_size: z.number().optional(),
  file_name: plain.max(1024).optional(),
  mime_type: z.string().max(255).optional(),
  duration: z.number().nonnegative().optional(),
});

const chat = z.object({
  id: z.number().int().safe(),
  type: z.string().max(32),
});

const user = z.object({
  id: z.number().int().safe(),
  is_bot: z.boolean(),
  first_name: plain.max(1024),
  last_name: plain.max(1024).optional(),
  username: plain.max(64).optional(),
  language_code: plain.max(35).optional(),
});

export const tgMessage = z.object({
  message_id: z.number().int().safe(),
  date: z.number().int().nonnegative(),
  chat,
  from: user.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  photo: z
    .array(fileRef.extend({ width: z.number(), height: z.number() }))
    .max(20)
    .optional(),
  voice: fileRef.optional(),
  audio: fileRef.optional(),
  video: fileRef.optional(),
  video_note: fileRef.optional(),
  animation: fileRef.optional(),
  document: fileRef.optional(),
  sticker: fileRef.optional(),
  reply_to_message: z.object({ message_id: z.number().int().safe() }).optional(),
});

export const tgUpdate = z.object({
  update_id: z.number().int(),
  message: z.unknown().optional(),
});
