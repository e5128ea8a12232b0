import { z } from 'zod';

/** Every answer is `{ code, msg, data }`; `code` is '000000' on success. */
export function envelope<T extends z.ZodTypeAny>(data: T) {
  return z.object({ code: z.string(), msg: z.string(), data });
}
export interface ApiEnvelope<T> {
  code: string;
  msg: string;
  data: T;
}
/** Error answers carry `data: null`, or for 100001 the offending fields. */
export const validationErrorData = z.object({
  fields: z.array(z.object({ path: z.string(), message: z.string() })),
  /** An upload over its kind's cap: the cap in bytes. */
  max_bytes: z.number().int().optional(),
  /**
   * Why, when the console has words for it: a WhatsApp template refused (`not_whatsapp`: a
   * chat or account of another channel; `template_unknown`: no approved template of that name
   * and language; `template_parameters`: not one value per placeholder;
   * `whatsapp_template_required`: addSession's greeting on WhatsApp must be a template).
   */
  reason: z.string().optional(),
});
export type ValidationErrorData = z.infer<typeof validationErrorData>;

/** `data` of a 400003 that says why (a signed URL or request refused, a message not deletable). */
export const refusalReasonData = z.object({ reason: z.string() });
