import { useEffect } from 'react';
import { Loader } from '@mantine/core';
import type { WhatsappTemplateSend } from '@parley/protocol';
import { useGreetingTemplate } from '../hooks/use-greeting-template';
import { TemplatePicker } from './template-picker';

/**
 * addSession's greeting from a WhatsApp account (WhatsApp takes only a template from a business
 * to someone who has not written): one of the account's approved templates, its variables
 * filled; `onChange` gets the send once complete, else null. Handed to the add-chat dialog by
 * the console (app/console/whatsapp-greeting.ts).
 */
export function GreetingTemplatePicker({
  sendPhone,
  onChange,
}: {
  sendPhone: string;
  /** Stable (a state setter). */
  onChange: (send: WhatsappTemplateSend | null) => void;
}) {
  const { templates, loading, form } = useGreetingTemplate(sendPhone);
  const send = form.send();
  // The send as a value: a new object each render must not call onChange again.
  const json = send ? JSON.stringify(send) : null;
  useEffect(() => {
    onChange(json ? (JSON.parse(json) as WhatsappTemplateSend) : null);
  }, [json, onChange]);
  return loading ? <Loader size="xs" /> : <TemplatePicker templates={templates} form={form} />;
}
