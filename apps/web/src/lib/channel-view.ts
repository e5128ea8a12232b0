import type { ComponentType } from 'react';
import type { AdminPhoneAccount, SessionItem } from '@parley/protocol';

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
  /** The admin console's part of the account channel dialog and the account list. */
  admin?: ChannelAdminView;
}

/** A channel's credentials as the account channel dialog takes them. */
export interface CredentialsForm {
  /**
   * Checks the fields (showing what is missing) and answers the request's fields of the
   * channel, or null when one is missing.
   */
  collect: () => Record<string, string> | null;
}

export interface ChannelAdminView {
  /** The account list's badge of an account on this channel (its poll or number state). */
  StatusBadge?: ComponentType<{ account: AdminPhoneAccount }>;
  /** Shown at the top of the dialog while the account is bound to this channel. */
  BoundPanel?: ComponentType<{ account: AdminPhoneAccount }>;
  /**
   * Its credential fields, shown while it is chosen: `formRef` is set to the form's collector;
   * `refused`: the server's message when it refused the credentials (by field).
   */
  Credentials?: ComponentType<{
    bound: boolean;
    formRef: { current: CredentialsForm | null };
    refused: { fields: string[]; message: string } | null;
  }>;
  /** After binding, the dialog stays open on the bound panel (what to paste elsewhere). */
  staysOpenOnBind?: boolean;
  /** Locale keys (admin): the submit button's label while chosen, the note when unbinding. */
  bindLabel?: string;
  unbindNote?: string;
}
