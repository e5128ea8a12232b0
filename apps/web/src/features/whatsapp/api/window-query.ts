import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/**
 * A WhatsApp chat's 24-hour window and, once closed, the number's approved templates (null
 * for a chat of another channel). Re-read each minute: the window closes with time alone.
 */
export function whatsappWindowQuery(sessionId: number) {
  return queryOptions({
    queryKey: ['whatsappWindow', sessionId] as const,
    queryFn: ({ signal }) => callApi('/v1/seat/wa/window', { session_id: sessionId }, { signal }),
    refetchInterval: 60_000,
  });
}
