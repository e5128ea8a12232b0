import type { ComponentType } from 'react';
import type { TFunction } from 'i18next';
import type {
  AdminCallInput,
  AdminCallPath,
  AdminCallResponse,
  AdminPhoneAccount,
  SessionItem,
  WhatsappTemplateSend,
} from '@parley/protocol';

/**
 * What the console shows of one channel: each channel's web folder exports one
 * (features/<name>/<name>.view.ts), and app/channels.ts lists them, one line per channel. The
 * rest of the console asks these slots and the protocol's abilities, never a channel's name.
 * Each slot is optional (a plain channel shows nothing of its own).
 */
export interface ChannelView {
  /** Above the composer of one of its chats (its reply window, ...). */
  ComposerNotice?: ComponentType<{ user: SessionItem }>;
  /** In place of the composer once free text is refused (the chat's `can_reply` is false). */
  PastWindowComposer?: ComponentType<{ user: SessionItem; disabled: boolean }>;
  /** The profile card's rows of the channel's own profile of the customer. */
  ProfileRows?: ComponentType<{ user: SessionItem }>;
  /** After the profile card's "via <number>" line (the channel's name, when it is not a phone). */
  ProfileVia?: ComponentType;
  /** A new chat's greeting on a channel that greets with a template (its `greeting` ability). */
  templateGreeting?: TemplateGreeting;
  /** The admin console's part of the account channel dialog and the account list. */
  admin?: ChannelAdminView;
}

/** The add-chat dialog's greeting picker of a channel that greets with an approved template. */
export interface TemplateGreeting {
  /** Picks and fills a template of the account; `onChange` gets the send once complete. */
  Picker: ComponentType<{
    sendPhone: string;
    onChange: (send: WhatsappTemplateSend | null) => void;
  }>;
  /** A refused template in the operator's language (the server's `data.reason`). */
  refusalText: (err: unknown, t: TFunction) => string;
}

/** A channel's credentials as the account channel dialog takes them. */
export interface CredentialsForm {
  /**
   * Checks the fields (showing what is missing) and answers the request's fields of the
   * channel, or null when one is missing.
   */
  collect: () => Record<string, string> | null;
}

/**
 * The admin console's call (features/admin/api/admin-client.ts), handed to a channel's panels:
 * a channel's folder does not import the admin feature.
 */
export type AdminCaller = <P extends AdminCallPath>(
  path: P,
  body: AdminCallInput<P>,
  options?: { notify?: boolean; signal?: AbortSignal },
) => Promise<AdminCallResponse<P>>;

export interface CredentialsProps {
  /** The account is bound to this channel already (its fields replace the binding's). */
  bound: boolean;
  formRef: { current: CredentialsForm | null };
  refused: { fields: string[]; message: string } | null;
}

export interface ChannelAdminView {
  /**
   * The account list's badge of an account on this channel (its poll or number state, which
   * changes without an admin action: the list re-reads itself while such a badge is shown).
   */
  StatusBadge?: ComponentType<{ account: AdminPhoneAccount }>;
  /** Shown at the top of the dialog while the account is bound to this channel. */
  BoundPanel?: ComponentType<{ account: AdminPhoneAccount; callAdmin: AdminCaller }>;
  /** The request fields of its credentials: a refusal naming one is shown by its field. */
  credentialFields?: readonly string[];
  /**
   * Its credential fields, shown while it is chosen: `formRef` is set to the form's collector;
   * `refused`: the server's message when it refused the credentials (by field).
   */
  Credentials?: ComponentType<CredentialsProps>;
  /** After binding, the dialog stays open on the bound panel (what to paste elsewhere). */
  staysOpenOnBind?: boolean;
  /**
   * Locale keys (admin): the submit button's label while chosen; while bound and another
   * channel is chosen, the note shown and the submit button's label (orange).
   */
  bindLabel?: string;
  unbindNote?: string;
  unbindLabel?: string;
}
