import { z } from 'zod';
import { epochMs, id } from '../entities.js';

/** WhatsApp accepts free-form messages for this long after the customer's last message. */
export const WHATSAPP_WINDOW_MS = 24 * 60 * 60 * 1000;

/** An approved message template of the number's WhatsApp Business Account. */
export const whatsappTemplate = z.object({
  name: z.string(),
  language: z.string(),
  category: z.string(),
  /** The body's text with its {{1}}, {{2}}... placeholders. */
  body: z.string(),
  /** How many variables the body takes. */
  variables: z.number().int().nonnegative(),
});
export type WhatsappTemplate = z.infer<typeof whatsappTemplate>;

export const waWindowRequest = z.object({ session_id: id });
/**
 * A WhatsApp chat's 24-hour customer-service window and, once it has closed, the number's
 * approved templates (the only messages WhatsApp then accepts). null for a chat of an account
 * on another channel.
 */
export const waWindowResponse = z
  .object({
    /** When free-form replies stop being accepted; null: the customer never wrote. */
    window_ends_at: epochMs.nullable(),
    open: z.boolean(),
    /** Listed from the Graph API while the window is closed; empty while it is open. */
    templates: z.array(whatsappTemplate),
  })
  .nullable();
