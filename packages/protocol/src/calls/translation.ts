import { z } from 'zod';
import { id } from '../entities.js';
import { TRANSLATION_LANGUAGE_CODES } from '../languages.js';

export const translationLanguage = z.enum(TRANSLATION_LANGUAGE_CODES);

export const translateTextRequest = z.object({
  session_id: id.optional(),
  texts: z.array(z.string().max(5000)).min(1).max(50),
  source_lang: z.union([translationLanguage, z.literal('auto')]).default('auto'),
  target_lang: translationLanguage,
});
export const translateTextResponse = z.object({
  engine: z.string(),
  translations: z.array(
    z.object({
      text: z.string(),
      detected_source_language: z.string().nullable(),
      from_memory: z.boolean(),
    }),
  ),
});
