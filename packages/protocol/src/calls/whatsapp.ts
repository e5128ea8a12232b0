import { z } from 'zod';
import { chatMessage, id, phone } from '../entities.js';
import { clientMsgId } from './messages.js';

/** A template part's text with its {{1}}, {{2}}... placeholders, and how many distinct ones. */
export const whatsappTemplateText = z.object({
  text: z.string(),
  variables: z.number().int().nonnegative(),
});

/**
 * A button of a template, in its order (its position is the `index` of a send's button
 * value). A URL button whose `url` ends in {{1}} takes that suffix (`variables`: 1).
 */
export const whatsappTemplateButton = z.object({
  /** Meta's type: URL, QUICK_REPLY, PHONE_NUMBER, ... */
  type: z.string(),
  text: z.string(),
  url: z.string().nullable(),
  variables: z.number().int().nonnegative(),
});

/** An approved message template of the number's WhatsApp Business Account (Graph API v21.0). */
export const whatsappTemplate = z.object({
  name: z.string(),
  language: z.string(),
  category: z.string(),
  /** A TEXT header (null: none, or an image/video/document header Parley cannot fill). */
  header: whatsappTemplateText.nullable(),
  /** The body's text with its {{1}}, {{2}}... placeholders. */
  body: z.string(),
  /** How many variables the body takes. */
  variables: z.number().int().nonnegative(),
  footer: z.string().nullable(),
  buttons: z.array(whatsappTemplateButton),
});
export type WhatsappTemplate = z.infer<typeof whatsappTemplate>;

/** One value of a placeholder (WhatsApp refuses an empty one). */
const templateValue = z.string().trim().min(1, 'required').max(1024);

/**
 * A template to send and its placeholders' values in order ({{1}} first) per part: checked
 * against the number's approved templates (unknown template or language, or a wrong count of
 * values: 100001 with reason `template_unknown` / `template_parameters`).
 */
export const whatsappTemplateSend = z.object({
  name: z.string().min(1).max(512),
  language: z.string().min(2).max(16),
  header: z.array(templateValue).max(1).default([]),
  body: z.array(templateValue).max(100).default([]),
  /** The {{1}} suffix of each URL button that has one, by the button's position. */
  buttons: z
    .array(z.object({ index: z.number().int().min(0).max(9), text: templateValue }))
    .max(10)
    .default([]),
});
export type WhatsappTemplateSend = z.infer<typeof whatsappTemplateSend>;

/**
 * Send an approved template to a WhatsApp chat of the seat (the only message WhatsApp accepts
 * past the 24-hour window). Stored once per client_msg_id as an outgoing text message showing
 * the template as the customer gets it (its placeholders filled), then delivered through the
 * outbox as a template message.
 */
export const waSendTemplateRequest = z.object({
  session_id: id,
  client_msg_id: clientMsgId,
  template: whatsappTemplateSend,
});
export const waSendTemplateResponse = chatMessage;

/**
 * The approved templates of one of the seat's accounts on WhatsApp (addSession's greeting for
 * a new customer); null for an account on another channel.
 */
export const waTemplatesRequest = z.object({ send_phone: phone });
export const waTemplatesResponse = z.object({ templates: z.array(whatsappTemplate) }).nullable();
