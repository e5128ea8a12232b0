import {
  ACCOUNT_LABEL_MAX,
  DEFAULT_CHANNEL,
  ERROR_CODES,
  PHONE_PATTERN,
  type ChannelName,
  type PlainChannelName,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { PhoneAccountRow } from '../../db/schema.js';
import { AppError, invalidField } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { accountsRepository } from './accounts.repository.js';
import { groupsRepository } from '../groups/groups.repository.js';
import { seatsRepository } from '../seats/seats.repository.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { REPLY_WINDOW } from '../sessions/reply-window.js';
import { messagesRepository } from '../messages/messages.repository.js';
import { inTransaction } from '../../lib/tx.js';
import { SeatEvents } from '../events/seat-events.js';
import { AuditService, CLI_ACTOR, type Actor } from '../admin/audit.service.js';
import type { SeatRef } from '../seats/seats.service.js';
import type { ChannelCredentials, SetChannelInput } from './channel-credentials.js';

/** A phone account by id (the console) or by its number (the CLI). */
export type AccountRef = number | string;

/** What the audit log keeps of a phone account. */
export const accountSnapshot = (
  a: Pick<PhoneAccountRow, 'send_phone' | 'label' | 'channel' | 'seat_id'>,
  extra: Record<string, unknown> = {},
) => ({
  send_phone: a.send_phone,
  label: a.label,
  channel: a.channel,
  seat_id: a.seat_id,
  ...extra,
});

/**
 * The one way an account changes channel, inside the caller's transaction (a channel's binding
 * or a plain channel): the account's channel set and its `account.set_channel` audit row
 * written. `before` / `after`: what the audit keeps of the credentials that go or come (never a
 * secret: a bot's name, a number's IDs).
 */
export async function switchChannel(
  trx: Db,
  audit: AuditService,
  input: {
    account: PhoneAccountRow;
    channel: ChannelName;
    actor: Actor;
    before?: Record<string, unknown>;
    after?: Record<string, unknown>;
  },
): Promise<PhoneAccountRow> {
  const { account, channel } = input;
  const switched = { ...account, channel };
  await accountsRepository.setChannel(trx, account.id, channel);
  // The account's chats take the new channel's reply window: a customer who wrote on the old
  // one has not written on this one (a rebinding on the same channel keeps the windows).
  if (account.channel !== channel) {
    await sessionsRepository.setReplyWindow(
      trx,
      account.send_phone,
      REPLY_WINDOW.unopened(channel),
    );
  }
  await audit.record(
    trx,
    input.actor,
    'account.set_channel',
    'account',
    account.id,
    account.send_phone,
    accountSnapshot(account, input.before),
    accountSnapshot(switched, input.after),
  );
  return switched;
}

function checkLabel(label: string): string {
  const value = label.trim();
  if (value.length > ACCOUNT_LABEL_MAX)
    throw invalidField('label', `at most ${ACCOUNT_LABEL_MAX} characters`);
  return value;
}

const NO_CREDENTIALS = { credentials: () => [] };

/** Phone accounts (send_phone) rented to seats: the admin console, the CLI and the demo. */
export class AccountsService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService = new AuditService(db),
    /** The channels whose accounts hold credentials (channels/registry.ts). */
    private readonly channels: { credentials(): readonly ChannelCredentials[] } = NO_CREDENTIALS,
    /** The consoles of the seats an assignment moves chats between are told (none: the demo). */
    private readonly events: SeatEvents = new SeatEvents(),
  ) {}

  /** The admin console's setChannel: a channel with credentials checks and binds them. */
  async setChannel(ref: AccountRef, input: SetChannelInput, actor: Actor = CLI_ACTOR) {
    const account = await this.require(ref);
    const withCredentials = this.channels.credentials().find((c) => c.channel === input.channel);
    if (withCredentials) await withCredentials.bind(account.send_phone, input, actor);
    else await this.setPlainChannel(account.id, input.channel as PlainChannelName, actor);
    return account;
  }

  async add(
    input: {
      phone: string;
      label?: string;
      channel?: PhoneAccountRow['channel'];
      /** Assign it to this seat in the same transaction. */
      seat?: SeatRef;
    },
    actor: Actor = CLI_ACTOR,
  ): Promise<PhoneAccountRow> {
    const send_phone = input.phone.trim();
    if (!PHONE_PATTERN.test(send_phone)) throw new AppError(ERROR_CODES.INVALID_PHONE_FORMAT);
    const label = checkLabel(input.label ?? '');
    const seat = input.seat === undefined ? null : await this.requireSeat(input.seat);
    if (await accountsRepository.findByPhone(this.db, send_phone)) {
      throw new AppError(ERROR_CODES.DATA_EXISTS);
    }
    try {
      return await inTransaction(this.db, async (trx) => {
        let row = await accountsRepository.insert(trx, {
          send_phone,
          label,
          channel: input.channel ?? DEFAULT_CHANNEL,
          now: Date.now(),
        });
        if (seat) {
          await accountsRepository.assign(trx, row.id, seat.id);
          row = { ...row, seat_id: seat.id };
        }
        await this.audit.record(
          trx,
          actor,
          'account.create',
          'account',
          row.id,
          send_phone,
          null,
          accountSnapshot(row),
        );
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(ERROR_CODES.DATA_EXISTS);
      throw err;
    }
  }

  async require(ref: AccountRef): Promise<PhoneAccountRow> {
    const row =
      typeof ref === 'number'
        ? await accountsRepository.findById(this.db, ref)
        : await accountsRepository.findByPhone(this.db, ref.trim());
    if (!row) throw new AppError(ERROR_CODES.DATA_NOT_FOUND);
    return row;
  }

  private async requireSeat(ref: SeatRef) {
    const seat = await seatsRepository.findByRef(this.db, ref);
    if (!seat) throw new AppError(ERROR_CODES.USER_NOT_FOUND);
    return seat;
  }

  async setLabel(
    ref: AccountRef,
    label: string,
    actor: Actor = CLI_ACTOR,
  ): Promise<PhoneAccountRow> {
    const value = checkLabel(label);
    const account = await this.require(ref);
    const after = { ...account, label: value };
    await inTransaction(this.db, async (trx) => {
      await accountsRepository.setLabel(trx, account.id, value);
      await this.audit.record(
        trx,
        actor,
        'account.update',
        'account',
        account.id,
        account.send_phone,
        accountSnapshot(account),
        accountSnapshot(after),
      );
    });
    return after;
  }

  /**
   * Assign an account to a seat. Its existing chats follow it to the new seat's Ungrouped
   * group, so no seat keeps chats of an account it no longer holds; the consoles of both
   * seats are pushed the change (the chats gone from one, new in the other, both group lists).
   */
  async assign(
    ref: AccountRef,
    seatRef: SeatRef,
    actor: Actor = CLI_ACTOR,
  ): Promise<{ moved: number; account: PhoneAccountRow }> {
    const account = await this.require(ref);
    const seat = await this.requireSeat(seatRef);
    if (account.seat_id === seat.id) return { moved: 0, account };
    const after = { ...account, seat_id: seat.id };
    return inTransaction(this.db, async (trx) => {
      await accountsRepository.assign(trx, account.id, seat.id);
      const ungrouped = await groupsRepository.findByType(trx, seat.id, 'ungrouped');
      if (!ungrouped) throw new Error(`seat ${seat.account} has no Ungrouped group`);
      const before = await sessionsRepository.seatsOfAccount(trx, account.send_phone);
      const chats = await sessionsRepository.handOverAccount(
        trx,
        account.send_phone,
        seat.id,
        ungrouped.id,
      );
      const moved = chats.length;
      await messagesRepository.handOverAccount(trx, account.send_phone, seat.id);
      await this.events.chatsHandedOver(trx, seat.id, chats, before);
      await this.audit.record(
        trx,
        actor,
        'account.assign',
        'account',
        account.id,
        account.send_phone,
        accountSnapshot(account),
        accountSnapshot(after, { moved_chats: moved }),
      );
      return { moved, account: after };
    });
  }

  /** A channel without credentials: any credentials of another channel go; the chats stay. */
  async setPlainChannel(
    ref: AccountRef,
    channel: PlainChannelName,
    actor: Actor = CLI_ACTOR,
  ): Promise<PhoneAccountRow> {
    const account = await this.require(ref);
    return inTransaction(this.db, async (trx) => {
      let forgotten: Record<string, unknown> = {};
      for (const c of this.channels.credentials()) {
        forgotten = { ...forgotten, ...(await c.forget(trx, account.send_phone)) };
      }
      return switchChannel(trx, this.audit, { account, channel, actor, before: forgotten });
    });
  }

  list() {
    return accountsRepository.listAll(this.db);
  }
}
