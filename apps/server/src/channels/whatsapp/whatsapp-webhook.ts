import { z } from 'zod';
import { cleanName } from '../../modules/messages/receive-rules.js';

/**
 * The parts of Meta's webhook Parley reads (Cloud API v21.0, "Webhooks: messages"), one schema
 * per part so that each message and each status of a delivery is parsed on its own: one that
 * does not fit is refused alone and the others are still stored. Unknown keys are dropped.
 */

// eslint-disable-next-line no-control-regex
const NO_CONTROL = /^[^\u0000-\u001f]+$/;
/** An id Meta gives (a wamid, a media id): no control characters, far under 5,000. */
const waRef = z.string().min(1).max(256).regex(NO_CONTROL);
/** A WhatsApp user's id: their phone number's digits. */
const waId = z.string().regex(/^[0-9]{5,20}$/);

const mediaPart = z.object({
  id: waRef.optional(),
  mime_type: z.string().max(255).optional(),
  caption: z.string().optional(),
  filename: z.string().max(1024).optional(),
  voice: z.boolean().optional(),
  animated: z.boolean().optional(),
});

export const waMessage = z.object({
  from: waId,
  id: waRef,
  /** Epoch seconds as a string; one that is not is read as "now" (never in the future). */
  timestamp: z
    .string()
    .regex(/^[0-9]{1,12}$/)
    .optional()
    .catch(undefined),
  type: z.string().max(64),
  context: z.object({ from: z.string().optional(), id: waRef.optional() }).optional(),
  text: z.object({ body: z.string() }).optional(),
  image: mediaPart.optional(),
  audio: mediaPart.optional(),
  video: mediaPart.optional(),
  document: mediaPart.optional(),
  sticker: mediaPart.optional(),
  location: z
    .object({
      latitude: z.number().optional(),
      longitude: z.number().optional(),
      name: z.string().max(1024).optional(),
      address: z.string().max(1024).optional(),
    })
    .optional(),
  contacts: z
    .array(
      z.object({
        name: z.object({ formatted_name: z.string().max(1024).optional() }).optional(),
        phones: z
          .array(
            z.object({
              phone: z.string().max(64).optional(),
              wa_id: z.string().max(64).optional(),
            }),
          )
          .max(20)
          .optional(),
        emails: z
          .array(z.object({ email: z.string().max(320).optional() }))
          .max(20)
          .optional(),
      }),
    )
    .max(20)
    .optional(),
  button: z.object({ text: z.string().optional() }).optional(),
  /** A reaction to a message (ours or the customer's, by wamid); `emoji` "" removes it. */
  reaction: z.object({ message_id: waRef.optional(), emoji: z.string().optional() }).optional(),
  interactive: z
    .object({
      button_reply: z.object({ title: z.string().optional() }).optional(),
      list_reply: z.object({ title: z.string().optional() }).optional(),
    })
    .optional(),
});
export type WaMessage = z.infer<typeof waMessage>;

export const waStatus = z.object({
  id: waRef,
  status: z.string().max(32),
  recipient_id: z.string().optional(),
  errors: z
    .array(z.object({ code: z.number().optional(), title: z.string().max(1024).optional() }))
    .max(20)
    .optional(),
});
export type WaStatus = z.infer<typeof waStatus>;

/** A customer's profile in a change: the name cleaned as every customer's name is. */
export const waContact = z.object({
  wa_id: z.string(),
  profile: z.object({ name: z.string().transform(cleanName) }).optional(),
});

/** The levels around the messages and statuses: their lists are parsed item by item. */
const list = z.array(z.unknown());
const any = z.unknown().optional();
export const waEnvelope = z.object({ object: any, entry: list.optional() });
export const waEntry = z.object({ changes: list.optional() });
export const waChange = z.object({ field: any, value: any });
export const waValue = z.object({
  metadata: z.object({ phone_number_id: any }).optional(),
  contacts: any,
  messages: any,
  statuses: any,
});
