import '../../../components/mantine-console-styles';
import { useQuery } from '@tanstack/react-query';
import type { SessionItem } from '@parley/protocol';
import { whatsappTemplatesQuery } from '../api/templates-query';
import { TemplateComposer } from './template-composer';

/** Past a WhatsApp chat's window: the number's approved templates, the only messages it takes. */
export function PastWindowComposer({ user, disabled }: { user: SessionItem; disabled: boolean }) {
  const { data } = useQuery(whatsappTemplatesQuery(user.send_phone));
  return <TemplateComposer user={user} templates={data?.templates ?? []} disabled={disabled} />;
}
