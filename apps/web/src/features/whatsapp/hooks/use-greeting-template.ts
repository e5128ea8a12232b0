import { useQuery } from '@tanstack/react-query';
import type { WhatsappTemplate } from '@parley/protocol';
import { whatsappTemplatesQuery } from '../api/templates-query';
import { isWhatsappAccount } from './use-whatsapp-window';
import { useTemplateForm } from './use-template-form';

const NONE: readonly WhatsappTemplate[] = [];

/**
 * addSession's greeting from a WhatsApp account is a template: the account's approved list
 * and the chosen one's values (`whatsapp` false: another channel, a text greeting).
 */
export function useGreetingTemplate(sendPhone: string | null) {
  const whatsapp = sendPhone !== null && isWhatsappAccount(sendPhone);
  const { data, isPending } = useQuery({
    ...whatsappTemplatesQuery(sendPhone ?? ''),
    enabled: whatsapp,
  });
  const templates = data?.templates ?? NONE;
  const form = useTemplateForm(templates);
  return { whatsapp, templates, loading: whatsapp && isPending, form };
}
