import type { AccountChannelFields, AdminCallRequest, ChannelName } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { Actor } from '../admin/audit.service.js';

/** The admin console's "set the account's channel" request (its credentials by channel). */
export type SetChannelInput = AdminCallRequest<'/v1/admin/accounts/setChannel'>;

/**
 * What a channel whose accounts need credentials of their own (a bot token) does for the admin
 * console and the CLI. Implemented in its folder under channels/ and handed to AccountsService
 * where the app is wired, so no module names a channel.
 */
export interface ChannelCredentials {
  readonly channel: ChannelName;
  /** Checks the credentials with the channel, stores them and switches the account to it; a
   *  refusal is a coded error on the request's field. */
  bind(sendPhone: string, input: SetChannelInput, actor: Actor): Promise<void>;
  /** The account leaves the channel: its credentials go (in `trx`). What the audit log keeps of
   *  them, or null when there were none. */
  forget(trx: Db, sendPhone: string): Promise<Record<string, unknown> | null>;
  /**
   * What the console shows of these accounts' binding (the channel's own field of a listed
   * account), by number; accounts with nothing bound are left out. `now`: the list's clock.
   */
  accountFields(
    sendPhones: readonly string[],
    now: number,
  ): Promise<Map<string, Partial<AccountChannelFields>>>;
}

/** The channels' fields of listed accounts (ChannelRegistry gathers them from every channel). */
export interface AccountChannelStatus {
  accountFields(
    sendPhones: readonly string[],
    now: number,
  ): Promise<Map<string, Partial<AccountChannelFields>>>;
}
