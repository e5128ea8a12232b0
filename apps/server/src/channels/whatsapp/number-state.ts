import type { Db } from '../../db/database.js';
import { GraphApiError } from './graph-api.js';
import { whatsappRepository } from './whatsapp.repository.js';

/**
 * What a Graph API refusal means for the number itself: a token that expired or was revoked
 * (190) stops everything until the administrator replaces it, so the account shows it with
 * the error (the admin console's status). A message's own refusal (131047 outside the window,
 * 131026, ...) is the message's, not the number's: nothing changes. Answers whether it marked.
 */
export async function markTokenRefused(db: Db, sendPhone: string, err: unknown): Promise<boolean> {
  if (!(err instanceof GraphApiError) || !err.tokenInvalid) return false;
  await whatsappRepository.setState(db, sendPhone, 'token_invalid', err.message, Date.now());
  return true;
}
