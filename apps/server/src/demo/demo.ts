import type { Db } from '../db/database.js';
import { adminRepository } from '../modules/admin/admin.repository.js';
import { createAdminAccount } from '../modules/admin/admin-auth.service.js';
import { AuditService, CLI_ACTOR } from '../modules/admin/audit.service.js';
import type { GroupRow, NewMessage, NewSession } from '../db/schema.js';
import { inTransaction } from '../lib/tx.js';
import { AccountsService } from '../modules/accounts/accounts.service.js';
import { groupsRepository } from '../modules/groups/groups.repository.js';
import { previewOf } from '../modules/messages/messages.presenter.js';
import { messagesRepository } from '../modules/messages/messages.repository.js';
import { quickRepliesRepository } from '../modules/quick-replies/quick-replies.repository.js';
import { SeatsService } from '../modules/seats/seats.service.js';
import { seatsRepository } from '../modules/seats/seats.repository.js';
import { sessionsRepository } from '../modules/sessions/sessions.repository.js';
import { DEMO_TEXTS } from './demo-texts.js';
import { markDemoLoaded } from './demo-mark.js';
import { createRandom, type Random } from './prng.js';

export const DEMO_ACCOUNT = 'demo';
export const DEMO_PASSWORD = 'parley-demo';
export const DEMO2_ACCOUNT = 'demo2';
/** The demo workspace's administrator (the admin console at /admin). */
export const DEMO_ADMIN_ACCOUNT = 'admin';
export const DEMO_ADMIN_PASSWORD = 'parley-admin';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

const DEMO_PHONES = [
  { phone: '+15550100001', label: 'US support line' },
  { phone: '+447700900101', label: 'UK support line' },
  { phone: '+5511955500101', label: 'Brazil sales' },
  { phone: '+34600100101', label: 'Spain care' },
];
const DEMO2_PHONE = { phone: '+15550100009', label: 'Second desk' };
const COUNTRY_PREFIXES = ['+1', '+44', '+55', '+34', '+52', '+7', '+86', '+33', '+351', '+57'];
/** Text quick replies of the demo seat (materials with media come with uploads). */
const DEMO_QUICK_REPLIES = [
  { name: 'Greeting', content: 'Hello! Thanks for reaching out. How can I help you today?' },
  { name: 'Order status', content: 'Could you send me your order number so I can check it?' },
  { name: 'Opening hours', content: 'We are available Monday to Saturday, 9:00–18:00 (UTC).' },
  { name: 'Goodbye', content: 'Thank you for contacting us. Have a great day!' },
];
const REMARKS = ['VIP since 2023', 'Prefers calls after 6pm', 'Refund pending', 'Wholesale lead'];

export interface DemoResult {
  loaded: boolean;
  sessions: number;
  messages: number;
}

interface SeedChat {
  session: NewSession;
  messages: Omit<NewMessage, 'session_id'>[];
}

/** One chat: a conversation in one language, ending with the customer's unread lines or not. */
function seedChat(
  rnd: Random,
  seatId: number,
  sendPhone: string,
  receiverPhone: string,
  group: GroupRow,
  latestTime: number,
): SeedChat {
  const texts = rnd.pick(DEMO_TEXTS);
  const count = rnd.int(3, 16);
  const unread = group.type === 'blocked' ? 0 : rnd.chance(0.55) ? rnd.int(1, 3) : 0;
  const directions: ('in' | 'out')[] = [];
  for (let i = 0; i < count; i++) {
    if (i >= count - unread) directions.push('in');
    else if (unread === 0 && i === count - 1) directions.push('out');
    else directions.push(i === 0 || rnd.chance(0.45) ? 'in' : 'out');
  }
  // Times run backwards from latest_time, a few minutes to a few hours apart.
  const times: number[] = new Array<number>(count);
  let t = latestTime;
  for (let i = count - 1; i >= 0; i--) {
    times[i] = t;
    t -= rnd.int(1, 180) * 60_000 + rnd.int(0, 59_000);
  }
  const messages = directions.map((direction, i) => ({
    seat_id: seatId,
    client_msg_id: null,
    direction,
    type: 'text' as const,
    content: rnd.pick(direction === 'in' ? texts.customer : texts.operator),
    media: null,
    status: direction === 'in' ? (i >= count - unread ? 'delivered' : 'read') : 'read',
    created_at: times[i]!,
    deleted_for_me: 0,
    deleted_for_all: 0,
  })) satisfies Omit<NewMessage, 'session_id'>[];
  const last = messages[messages.length - 1]!;
  return {
    session: {
      seat_id: seatId,
      send_phone: sendPhone,
      receiver_phone: receiverPhone,
      group_id: group.id,
      prev_group_id: null,
      is_top: group.type !== 'blocked' && rnd.chance(0.05) ? 1 : 0,
      remark: rnd.chance(0.1) ? rnd.pick(REMARKS) : '',
      un_read_count: unread,
      add_time: times[0]!,
      latest_time: latestTime,
      last_direction: last.direction,
      last_preview: previewOf({ type: 'text', content: last.content, media: null }),
      last_type: 'text',
      customer_language: texts.code,
      blocked: group.type === 'blocked' ? 1 : 0,
    },
    messages,
  };
}

function pickGroup(rnd: Random, groups: Record<string, GroupRow>): GroupRow {
  const r = rnd.next();
  if (r < 0.5) return groups.ungrouped!;
  if (r < 0.65) return groups.VIP!;
  if (r < 0.78) return groups['Follow-up']!;
  if (r < 0.84) return groups.Wholesale!;
  if (r < 0.93) return groups.tg_link_pushed!;
  return groups.blocked!;
}

async function seedSeat(
  trx: Db,
  rnd: Random,
  spec: {
    account: string;
    nickname: string;
    phones: { phone: string; label: string }[];
    quickReplies?: { name: string; content: string }[];
  },
  chats: number,
  customGroups: string[],
  now: number,
  usedNumbers: Set<string>,
) {
  const seat = await new SeatsService(trx).create({
    account: spec.account,
    password: DEMO_PASSWORD,
    nickname: spec.nickname,
  });
  const accounts = new AccountsService(trx);
  for (const p of spec.phones) {
    await accounts.add({ phone: p.phone, label: p.label });
    await accounts.assign(p.phone, seat.account);
  }
  const groups: Record<string, GroupRow> = {};
  for (const g of await groupsRepository.listBySeat(trx, seat.id)) groups[g.type] = g;
  for (const name of customGroups) {
    groups[name] = await groupsRepository.insert(trx, {
      seat_id: seat.id,
      name,
      type: 'custom',
      now,
    });
  }
  const seeds: SeedChat[] = [];
  for (let i = 0; i < chats; i++) {
    let receiver: string;
    do {
      receiver = `${rnd.pick(COUNTRY_PREFIXES)}${rnd.int(200_000_000, 999_999_999)}`;
    } while (usedNumbers.has(receiver));
    usedNumbers.add(receiver);
    // Both time tabs: about 45% active within the last 24 hours.
    const latest = rnd.chance(0.45)
      ? now - rnd.int(1, 23 * 60) * 60_000
      : now - DAY - rnd.int(0, 60 * 24) * 60 * 60_000;
    const group = customGroups.length ? pickGroup(rnd, groups) : groups.ungrouped!;
    const phone = spec.phones[i % spec.phones.length]!.phone;
    seeds.push(seedChat(rnd, seat.id, phone, receiver, group, latest));
  }
  const ids = await sessionsRepository.insertMany(
    trx,
    seeds.map((s) => s.session),
  );
  const messages: NewMessage[] = [];
  for (const s of seeds) {
    const sessionId = ids.get(`${s.session.send_phone}|${s.session.receiver_phone}`)!;
    for (const m of s.messages) messages.push({ ...m, session_id: sessionId });
  }
  await messagesRepository.insertMany(trx, messages);
  // A minute apart, so the list (latest update first) has a stable order.
  for (const [i, q] of (spec.quickReplies ?? []).entries()) {
    const at = now - DAY + i * 60_000;
    await quickRepliesRepository.insert(
      trx,
      seat.id,
      { kind: 'text', name: q.name, content: q.content, media_id: null },
      at,
    );
  }
  return { sessions: seeds.length, messages: messages.length };
}

/**
 * The demo workspace: seat demo / parley-demo with 4 accounts, 3 custom groups and 360 chats
 * (about 3,500 messages in six languages), plus a second seat `demo2` with a few chats of its
 * own. Deterministic and loaded in one transaction with its mark (demo-mark.ts: the customer
 * sandbox is on with it); does nothing when `demo` exists.
 */
export async function loadDemo(db: Db, now = Date.now()): Promise<DemoResult> {
  if (await seatsRepository.findByAccount(db, DEMO_ACCOUNT)) {
    return { loaded: false, sessions: 0, messages: 0 };
  }
  const rnd = createRandom(20240611);
  const used = new Set<string>();
  return inTransaction(db, async (trx) => {
    const a = await seedSeat(
      trx,
      rnd,
      {
        account: DEMO_ACCOUNT,
        nickname: 'Demo Operator',
        phones: DEMO_PHONES,
        quickReplies: DEMO_QUICK_REPLIES,
      },
      360,
      ['VIP', 'Follow-up', 'Wholesale'],
      now,
      used,
    );
    const b = await seedSeat(
      trx,
      rnd,
      { account: DEMO2_ACCOUNT, nickname: 'Second Operator', phones: [DEMO2_PHONE] },
      8,
      [],
      now,
      used,
    );
    if (!(await adminRepository.findByAccount(trx, DEMO_ADMIN_ACCOUNT))) {
      await createAdminAccount(
        trx,
        new AuditService(trx),
        { account: DEMO_ADMIN_ACCOUNT, password: DEMO_ADMIN_PASSWORD },
        CLI_ACTOR,
      );
    }
    await markDemoLoaded(trx, now);
    return { loaded: true, sessions: a.sessions + b.sessions, messages: a.messages + b.messages };
  });
}
