import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api-core';

const REASONS = [
  'not_whatsapp',
  'template_unknown',
  'template_parameters',
  'whatsapp_template_required',
  'whatsapp_unavailable',
] as const;

/** A template refused, in the operator's language (the server's `data.reason`), else its message. */
export function templateRefusalText(err: unknown, t: TFunction): string {
  const reason = err instanceof ApiError ? (err.data as { reason?: string } | null)?.reason : null;
  const known = REASONS.find((r) => r === reason);
  if (known) return t(`chat:whatsapp.refused.${known}`);
  return err instanceof ApiError ? err.message : t('chat:whatsapp.sendFailed');
}
