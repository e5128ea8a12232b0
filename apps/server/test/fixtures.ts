import type { Db } from '../src/db/database.js';
import type { NewMessage } from '../src/db/schema.js';
import { groupsRepository } from '../src/modules/groups/groups.repository.js';
import { messagesRepository } from '../src/modules/messages/messages.repository.js';
import { sessionsRepository } from '../src/modules/sessions/sessions.repository.js';
import type { Services } from '../src/services.js';
import { servicesOf, type TestApp } from './helper.js';

export const PASSWORD = 'correct-horse-1';
let phoneCounter = 0;

/** A unique phone number per call (within a test file). */
export function nextPhone(prefix = '+1555'): string {
  phoneCounter += 1;
  return `${prefix}${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter).padStart(6, '0')}`;
}

export interface SeatFixture {
  seatId: number;
  account: string;
  token: string;
  phones: string[];
  groups: { ungrouped: number; blocked: number; tg_link_pushed: number };
}

/** A seat's token, by the login call. */
export async function signInAs(t: TestApp, account: string): Promise<string> {
  const login = await t.call('/v1/seat/chat/login', { account, password: PASSWORD });
  if (login.code !== '000000') throw new Error(`login failed: ${login.raw}`);
  return login.data.token;
}

/**
 * A seat created through the services (as the CLI does), with accounts and a token.
 * `signIn: false`: no login (a schema migrated back lacks what this build's login reads): token ''.
 */
export async function createSeat(
  t: TestApp,
  account: string,
  phones = 1,
  { signIn = true }: { signIn?: boolean } = {},
): Promise<SeatFixture> {
  const seat = await t.services.seats.create({ account, password: PASSWORD });
  const list: string[] = [];
  for (let i = 0; i < phones; i++) {
    const phone = nextPhone();
    await t.services.accounts.add({ phone, label: `line ${i + 1}` });
    await t.services.accounts.assign(phone, account);
    list.push(phone);
  }
  const token = signIn ? await signInAs(t, account) : '';
  const groups = await groupsRepository.listBySeat(t.db, seat.id);
  const byType = (type: string) => groups.find((g) => g.type === type)!.id;
  return {
    seatId: seat.id,
    account,
    token,
    phones: list,
    groups: {
      ungrouped: byType('ungrouped'),
      blocked: byType('blocked'),
      tg_link_pushed: byType('tg_link_pushed'),
    },
  };
}

export interface ChatFixture {
  sessionId: number;
  sendPhone: string;
  receiverPhone: string;
}

/**
 * A chat with `inbound` customer messages (the inbound bridge comes later, so they are
 * inserted through the repositories), the last `unread` of them unread.
 */
export async function createChat(
  db: Db,
  seat: SeatFixture,
  opts: {
    groupId?: number;
    latestTime?: number;
    unread?: number;
    inbound?: number;
    isTop?: boolean;
    lastDirection?: 'in' | 'out';
    sendPhone?: string;
    remark?: string;
  } = {},
): Promise<ChatFixture> {
  const sendPhone = opts.sendPhone ?? seat.phones[0]!;
  const receiverPhone = nextPhone('+4477');
  const latest = opts.latestTime ?? Date.now() - 60_000;
  const inbound = opts.inbound ?? Math.max(opts.unread ?? 0, 1);
  const groupId = opts.groupId ?? seat.groups.ungrouped;
  const known = servicesOf(db)?.listVersions;
  const cachedBefore = known?.known(seat.seatId);
  const ids = await sessionsRepository.insertMany(db, [
    {
      seat_id: seat.seatId,
      send_phone: sendPhone,
      receiver_phone: receiverPhone,
      group_id: groupId,
      prev_group_id: null,
      is_top: opts.isTop ? 1 : 0,
      remark: opts.remark ?? '',
      un_read_count: opts.unread ?? 0,
      add_time: latest - inbound * 1000,
      latest_time: latest,
      last_direction: opts.lastDirection ?? (inbound > 0 ? 'in' : null),
      last_preview: inbound > 0 ? `hello ${inbound}` : null,
      last_type: inbound > 0 ? 'text' : null,
      customer_language: 'ES',
      blocked: groupId === seat.groups.blocked ? 1 : 0,
    },
  ]);
  const sessionId = ids.get(`${sendPhone}|${receiverPhone}`)!;
  const messages: NewMessage[] = [];
  for (let i = 0; i < inbound; i++) {
    messages.push({
      session_id: sessionId,
      seat_id: seat.seatId,
      client_msg_id: null,
      direction: 'in',
      type: 'text',
      content: `hello ${i + 1}`,
      media: null,
      status: 'delivered',
      created_at: latest - (inbound - i) * 1000,
      deleted_for_me: 0,
      deleted_for_all: 0,
    });
  }
  await messagesRepository.insertMany(db, messages);
  if (known && cachedBefore !== undefined) await untilHeard(known, seat.seatId, cachedBefore);
  return { sessionId, sendPhone, receiverPhone };
}

/**
 * A chat written by hand, as createChat does, reaches the app's cached lists on PostgreSQL
 * through the database's notice, a moment after the commit (lib/known-versions.ts); SQLite's
 * triggers tell at once. A test reads next: it waits, as a console would by then, until the
 * app no longer trusts the version it had cached (a read before the notice got the old list:
 * CI, on a loaded machine).
 */
async function untilHeard(known: Services['listVersions'], seatId: number, cached: number) {
  const deadline = Date.now() + 5_000;
  while (known.known(seatId) === cached) {
    if (Date.now() > deadline)
      throw new Error(`seat ${seatId}: no notice of a chat written by hand`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export async function createGroup(t: TestApp, seat: SeatFixture, name: string): Promise<number> {
  const res = await t.call('/v1/seat/chat/doGroup', { type: 'add', group_name: name }, seat.token);
  if (res.code !== '000000') throw new Error(res.raw);
  return res.data.group.group_id;
}

export type { Services };
