import { useQuery } from '@tanstack/react-query';
import type { WhatsappTemplate } from '@parley/protocol';
import { whatsappTemplatesQuery } from '../api/templates-query';
import { useTemplateForm } from './use-template-form';

const NONE: readonly WhatsappTemplate[] = [];

/** A WhatsApp account's approved templates and the one chosen for a new chat's greeting. */
export function useGreetingTemplate(sendPhone: string) {
  const { data, isPending } = useQuery(whatsappTemplatesQuery(sendPhone));
  const templates = data?.templates ?? NONE;
  const form = useTemplateForm(templates);
  return { templates, loading: isPending, form };
}
