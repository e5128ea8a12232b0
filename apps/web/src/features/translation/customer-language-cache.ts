import type { QueryClient } from '@tanstack/react-query';
import { consoleStore } from '../../stores/console.store';
import { applySessionUpdate } from '../sessions/api/session-cache';

/**
 * Shows a chat's customer language as the server now has it (set in the profile card, or
 * detected by a translation): in the open chat and the cached lists.
 */
export function applyCustomerLanguage(
  qc: QueryClient,
  sessionId: number,
  language: string | null,
): void {
  const user = consoleStore.get().selectedUser;
  if (user?.session_id !== sessionId || user.customer_language === language) return;
  applySessionUpdate(qc, { ...user, customer_language: language });
}
