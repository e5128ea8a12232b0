import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** The approved templates of one of the seat's WhatsApp accounts (the add-chat dialog's). */
export function whatsappTemplatesQuery(sendPhone: string) {
  return queryOptions({
    queryKey: ['whatsappTemplates', sendPhone] as const,
    queryFn: ({ signal }) =>
      callApi('/v1/seat/wa/templates', { send_phone: sendPhone }, { signal }),
    staleTime: 60_000,
  });
}
