import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WhatsappNumberRow, WhatsappTemplateSendRow } from '../../db/schema.js';

export type NumberState = WhatsappNumberRow['state'];

/** The WhatsApp channel's tables (migrations 035 and 036). */
/** A bound number as its webhook needs it: its row and its account's seat. */
/**
 * A number with its account's seat (null: none) and whether that seat is a team's queue seat
 * (`team_account_id` not null: InboundMessage.queueSeat).
 */
export type WebhookNumber = WhatsappNumberRow & {
  seat_id: number | null;
  team_account_id: number | null;
};

export const whatsappRepository = {
  findByPhone(db: Db, sendPhone: string): Promise<WhatsappNumberRow | undefined> {
    return db
      .selectFrom('whatsapp_numbers')
      .selectAll()
      .where('send_phone', '=', sendPhone)
      .executeTakeFirst();
  },

  /** The numbers of a page of accounts (the admin console's list). */
  findByPhones(db: Db, sendPhones: readonly string[]) {
    if (sendPhones.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('whatsapp_numbers')
      .select(['send_phone', 'verified_name', 'state', 'last_error', 'last_error_at'])
      .where('send_phone', 'in', sendPhones)
      .execute();
  },

  findByNumberId(db: Db, phoneNumberId: string): Promise<WhatsappNumberRow | undefined> {
    return db
      .selectFrom('whatsapp_numbers')
      .selectAll()
      .where('phone_number_id', '=', phoneNumberId)
      .executeTakeFirst();
  },

  /**
   * The number a webhook is for, with the seat its account is assigned to (null: none) and
   * whether that is a team's queue seat: one read per delivery for all.
   */
  findForWebhook(db: Db, phoneNumberId: string): Promise<WebhookNumber | undefined> {
    return db
      .selectFrom('whatsapp_numbers')
      .leftJoin('phone_accounts', 'phone_accounts.send_phone', 'whatsapp_numbers.send_phone')
      .leftJoin('team_accounts', 'team_accounts.queue_seat_id', 'phone_accounts.seat_id')
      .selectAll('whatsapp_numbers')
      .select(['phone_accounts.seat_id', 'team_accounts.account_id as team_account_id'])
      .where('whatsapp_numbers.phone_number_id', '=', phoneNumberId)
      .executeTakeFirst();
  },

  /** Binds (or rebinds) an account's number. */
  async upsert(
    db: Db,
    row: Omit<WhatsappNumberRow, 'state' | 'last_error' | 'last_error_at' | 'pace_next_at'>,
  ) {
    await db.deleteFrom('whatsapp_numbers').where('send_phone', '=', row.send_phone).execute();
    await db
      .insertInto('whatsapp_numbers')
      .values({ ...row, state: 'ok', last_error: null, last_error_at: null })
      .execute();
  },

  async remove(db: Db, sendPhone: string): Promise<boolean> {
    const result = await db
      .deleteFrom('whatsapp_numbers')
      .where('send_phone', '=', sendPhone)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** What the last Graph API call said of the number (the admin console's status). */
  async setState(db: Db, sendPhone: string, state: NumberState, error: string | null, now: number) {
    await db
      .updateTable('whatsapp_numbers')
      .set(
        state === 'ok'
          ? { state }
          : { state, last_error: (error ?? '').slice(0, 500), last_error_at: now },
      )
      .where('send_phone', '=', sendPhone)
      .execute();
  },

  /**
   * Reserves the number's next sending slot, for every instance alike (one statement: the row
   * is the turn): the later of now and the number's next free time, which moves `intervalMs`
   * on. Answers the slot, or null when the number's turns are taken beyond `horizonMs` (the
   * delivery then goes back to the outbox instead of waiting).
   */
  async reservePace(
    db: Db,
    sendPhone: string,
    now: number,
    intervalMs: number,
    horizonMs: number,
  ): Promise<number | null> {
    const row = await db
      .updateTable('whatsapp_numbers')
      .set({
        pace_next_at: sql<number>`(case when pace_next_at > ${now} then pace_next_at else ${now} end) + ${intervalMs}`,
      })
      .where('send_phone', '=', sendPhone)
      .where('pace_next_at', '<=', now + horizonMs)
      .returning('pace_next_at')
      .executeTakeFirst();
    return row ? Number(row.pace_next_at) - intervalMs : null;
  },

  findContact(db: Db, sendPhone: string, waId: string) {
    return db
      .selectFrom('whatsapp_contacts')
      .selectAll()
      .where('send_phone', '=', sendPhone)
      .where('wa_id', '=', waId)
      .executeTakeFirst();
  },

  /**
   * These customers wrote: their profile names (null: the one kept) and the start of a new
   * 24-hour window, in one statement (one row per contact: an upsert touches a row once).
   */
  async recordContacts(
    db: Db,
    rows: { sendPhone: string; waId: string; profileName: string | null; at: number }[],
  ) {
    if (rows.length === 0) return;
    const now = Date.now();
    await db
      .insertInto('whatsapp_contacts')
      .values(
        rows.map((row) => ({
          send_phone: row.sendPhone,
          wa_id: row.waId,
          profile_name: row.profileName,
          last_inbound_at: row.at,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['send_phone', 'wa_id']).doUpdateSet((eb) => ({
          profile_name: eb.fn.coalesce('excluded.profile_name', 'whatsapp_contacts.profile_name'),
          last_inbound_at: eb.ref('excluded.last_inbound_at'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  },

  /** The wamids of these customers' messages, in one statement (one seen before stays). */
  async recordInbound(
    db: Db,
    rows: { sendPhone: string; wamid: string; msgId: number; contextWamid: string | null }[],
  ) {
    if (rows.length === 0) return;
    const now = Date.now();
    await db
      .insertInto('whatsapp_messages')
      .values(
        rows.map((row) => ({
          send_phone: row.sendPhone,
          wamid: row.wamid,
          msg_id: row.msgId,
          direction: 'in' as const,
          context_wamid: row.contextWamid,
          created_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['send_phone', 'wamid']).doNothing())
      .execute();
  },

  async recordMessage(
    db: Db,
    row: {
      sendPhone: string;
      wamid: string;
      msgId: number;
      direction: 'in' | 'out';
      contextWamid?: string | null;
    },
  ) {
    await db
      .insertInto('whatsapp_messages')
      .values({
        send_phone: row.sendPhone,
        wamid: row.wamid,
        msg_id: row.msgId,
        direction: row.direction,
        context_wamid: row.contextWamid ?? null,
        created_at: Date.now(),
      })
      .onConflict((oc) => oc.columns(['send_phone', 'wamid']).doNothing())
      .execute();
  },

  findMessage(db: Db, sendPhone: string, wamid: string) {
    return db
      .selectFrom('whatsapp_messages')
      .selectAll()
      .where('send_phone', '=', sendPhone)
      .where('wamid', '=', wamid)
      .executeTakeFirst();
  },

  /** WhatsApp's id of the customer's newest message in a chat (marking it read reads all). */
  async latestInbound(db: Db, sendPhone: string, sessionId: number): Promise<string | null> {
    const row = await db
      .selectFrom('whatsapp_messages')
      .innerJoin('messages', 'messages.id', 'whatsapp_messages.msg_id')
      .select('whatsapp_messages.wamid')
      .where('whatsapp_messages.send_phone', '=', sendPhone)
      .where('whatsapp_messages.direction', '=', 'in')
      .where('messages.session_id', '=', sessionId)
      .orderBy('whatsapp_messages.msg_id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.wamid ?? null;
  },

  /** An operator's message that goes out as a template (whatsapp-template-sender.ts). */
  async recordTemplateSend(db: Db, row: WhatsappTemplateSendRow) {
    await db.insertInto('whatsapp_template_sends').values(row).execute();
  },

  findTemplateSend(db: Db, msgId: number): Promise<WhatsappTemplateSendRow | undefined> {
    return db
      .selectFrom('whatsapp_template_sends')
      .selectAll()
      .where('msg_id', '=', msgId)
      .executeTakeFirst();
  },
};
