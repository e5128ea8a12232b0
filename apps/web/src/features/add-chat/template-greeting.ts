import type { ComponentType } from 'react';
import type { TFunction } from 'i18next';
import type { WhatsappTemplateSend } from '@parley/protocol';

/**
 * A new chat's greeting on an account whose channel takes only templates (WhatsApp): the
 * console hands the dialog the channel's picker (app/console/whatsapp-greeting.ts), so this
 * feature imports no other.
 */
export interface TemplateGreeting {
  /** Picks and fills a template of the account; `onChange` gets the send once complete. */
  Picker: ComponentType<{
    sendPhone: string;
    onChange: (send: WhatsappTemplateSend | null) => void;
  }>;
  /** A refused template in the operator's language (the server's `data.reason`). */
  refusalText: (err: unknown, t: TFunction) => string;
}
