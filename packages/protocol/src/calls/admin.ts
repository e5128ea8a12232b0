import { z } from 'zod';
import { epochMs, id, phone, queryEpochMs, queryId } from '../entities.js';
import {
  ACCOUNT_STATE_CHANNELS,
  CHANNELS,
  CREDENTIAL_CHANNEL_NAMES,
  DEFAULT_CHANNEL,
  channelName,
  plainChannelName,
  type AccountStateChannel,
  type CredentialChannelName,
} from '../channels.js';
import { telegramStatus, whatsappStatus } from '../channel-accounts.js';
import { ACCOUNT_MAX, PASSWORD_MIN, TEAM_CAPACITY_MAX, TEAM_MEMBERS_MAX } from '../limits.js';
import { baseLanguage } from '../translation-values.js';
import { teamNote, teamRouting } from './team.js';
import { translationLanguage } from './translation.js';

/**
 * The workspace owner's console: administrators are their own accounts (not seats) with their
 * own tokens. A seat's token never opens an admin call (400002) and an admin token never opens
 * a seat call (400002): each side only knows its own tokens.
 */

export const ADMIN_PAGE_SIZE_DEFAULT = 50;
export const ADMIN_PAGE_SIZE_MAX = 200;
export const NICKNAME_MAX = 64;
export const ACCOUNT_LABEL_MAX = 64;

const pageSize = z.number().int().min(1).max(ADMIN_PAGE_SIZE_MAX).default(ADMIN_PAGE_SIZE_DEFAULT);
/** Opaque cursor from the previous page's `next_cursor`. */
const cursor = z.string().max(200).optional();
const keyword = z.string().trim().max(64).optional();
const paged = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    list: z.array(item),
    /** Every row matching the filters, not only this page. */
    total: z.number().int().nonnegative(),
    next_cursor: z.string().nullable(),
  });

/** A seat's or an administrator's account name: letters, digits or _ . @ - */
export const ACCOUNT_NAME_PATTERN = /^[A-Za-z0-9_.@-]+$/;
export const accountName = z
  .string()
  .trim()
  .min(1, 'required')
  .max(ACCOUNT_MAX)
  .regex(ACCOUNT_NAME_PATTERN, `1-${ACCOUNT_MAX} letters, digits or _ . @ -`);
export const newPassword = z
  .string()
  .min(PASSWORD_MIN, `at least ${PASSWORD_MIN} characters`)
  .max(256);
export const nickname = z.string().trim().min(1, 'required').max(NICKNAME_MAX);
export const accountLabel = z.string().trim().max(ACCOUNT_LABEL_MAX);
export const channelKind = channelName;
export type ChannelKind = z.infer<typeof channelKind>;

// ---------------------------------------------------------------------------------------------
// Entities

/** Login answer: the admin token and who it is. */
export const adminInfo = z.object({
  token: z.string(),
  admin_id: id,
  account: z.string(),
  /** When the token stops working (epoch ms). */
  expires_at: epochMs,
});
export type AdminInfo = z.infer<typeof adminInfo>;

export const adminMe = z.object({
  admin_id: id,
  account: z.string(),
  created_at: epochMs,
  expires_at: epochMs,
});
export type AdminMe = z.infer<typeof adminMe>;

/** One seat as the console lists it. */
export const adminSeat = z.object({
  seat_id: id,
  account: z.string(),
  nickname: z.string(),
  frozen: z.boolean(),
  /**
   * Not frozen, and seen within two push heartbeats and a second (any authenticated activity:
   * a login, a call or media fetch with its token, its push socket) or a push socket of the
   * seat open now.
   */
  online: z.boolean(),
  /** The last time the seat was seen (a login, a call or a socket); null: never signed in. */
  last_seen_at: epochMs.nullable(),
  /** The seat's phone accounts (send_phone), in the order they were added. */
  phone_accounts: z.array(z.string()),
  /** Chats in the console (blocked ones included). */
  open_chats: z.number().int().nonnegative(),
  /** Unread customer messages over all its chats. */
  unread: z.number().int().nonnegative(),
  /** Chats whose last message is the customer's (not blocked). */
  waiting_chats: z.number().int().nonnegative(),
  /** When the longest-waiting customer's unanswered message came; null when none waits. */
  oldest_waiting_since: epochMs.nullable(),
  created_at: epochMs,
});
export type AdminSeat = z.infer<typeof adminSeat>;

/** Each channel's field of a listed account: its `account` schema of CHANNELS, or null. */
const ACCOUNT_CHANNEL_SHAPE = Object.fromEntries(
  ACCOUNT_STATE_CHANNELS.map((c) => [c, CHANNELS[c].account.nullable()]),
) as {
  [C in AccountStateChannel]: z.ZodNullable<NonNullable<(typeof CHANNELS)[C]['account']>>;
};

/** One phone account (send_phone) as the console lists it. */
export const adminPhoneAccount = z.object({
  account_id: id,
  send_phone: z.string(),
  label: z.string(),
  channel: channelKind,
  /** The seat holding it; null while unassigned. */
  seat_id: id.nullable(),
  seat_account: z.string().nullable(),
  /** Chats of this account. */
  chats: z.number().int().nonnegative(),
  /**
   * Each channel with an account state (its `account` in CHANNELS) adds a field of its name:
   * what it shows of the account's binding, null when the account has none (the bot serving a
   * Telegram account and its poll state; the WhatsApp number and its token's state).
   */
  ...ACCOUNT_CHANNEL_SHAPE,
  created_at: epochMs,
});
export type AdminPhoneAccount = z.infer<typeof adminPhoneAccount>;

/**
 * The fields of a phone account that a channel fills in (its binding's state), each null where
 * the account's channel has nothing to show. The server's admin module lists accounts without
 * knowing any channel: each channel's folder answers its own field.
 */
export const NO_ACCOUNT_CHANNEL_FIELDS = Object.fromEntries(
  ACCOUNT_STATE_CHANNELS.map((c) => [c, null]),
) as { readonly [C in AccountStateChannel]: null };
export type AccountChannelFields = Pick<AdminPhoneAccount, AccountStateChannel>;

/** The numbers of the live overview, for one seat or for all. */
export const overviewFigures = z.object({
  /** Customer messages received since the start of today. */
  messages_in_today: z.number().int().nonnegative(),
  /** Messages sent by seats since the start of today. */
  messages_out_today: z.number().int().nonnegative(),
  waiting_chats: z.number().int().nonnegative(),
  /** The longest current wait, in ms (0 when none waits). */
  longest_wait_ms: z.number().int().nonnegative(),
  /** Median time from a customer's first unanswered message to the reply, over replies in the last 24 h; null: no reply. */
  median_first_response_ms: z.number().int().nonnegative().nullable(),
  /** How many replies the median is over. */
  first_responses_24h: z.number().int().nonnegative(),
  outbox_pending: z.number().int().nonnegative(),
  outbox_failed: z.number().int().nonnegative(),
});
export type OverviewFigures = z.infer<typeof overviewFigures>;

export const overviewSeat = overviewFigures.extend({
  seat_id: id,
  account: z.string(),
  nickname: z.string(),
  /** As the seats list's `online`: not frozen, and seen within two push heartbeats and a second (any authenticated activity) or a push socket open now. */
  online: z.boolean(),
  frozen: z.boolean(),
});
export type OverviewSeat = z.infer<typeof overviewSeat>;

export const translationUsage = z.object({
  /** Characters sent to each engine today (only engines that were sent some). */
  engines: z.array(z.object({ engine: z.string(), characters: z.number().int().nonnegative() })),
  /** Characters asked for translation today that the shared memory answered. */
  memory_characters: z.number().int().nonnegative(),
  /** Characters asked today: sent to engines plus served by the memory. */
  total_characters: z.number().int().nonnegative(),
  /** memory_characters / total_characters (0..1); null when nothing was asked. */
  memory_share: z.number().min(0).max(1).nullable(),
});
export type TranslationUsage = z.infer<typeof translationUsage>;

export const overview = z.object({
  /** When the numbers were read (epoch ms). */
  at: epochMs,
  /** The start of "today" the numbers count from (the console's midnight, by tz_offset_min). */
  day_start: epochMs,
  totals: overviewFigures,
  seats: z.array(overviewSeat),
  translation: translationUsage,
});
export type Overview = z.infer<typeof overview>;

export const outboxStatus = z.enum(['pending', 'failed']);
export const outboxItem = z.object({
  outbox_id: id,
  msg_id: id,
  kind: z.enum(['message', 'delete']),
  status: z.enum(['pending', 'done', 'failed']),
  attempts: z.number().int().nonnegative(),
  last_error: z.string().nullable(),
  /** When the next attempt is due (pending). */
  next_at: epochMs,
  created_at: epochMs,
  updated_at: epochMs,
  seat_id: id,
  seat_account: z.string(),
  session_id: id,
  send_phone: z.string(),
  receiver_phone: z.string(),
  /** The message's own words on one line (at most 100 characters). */
  preview: z.string(),
});
export type OutboxItem = z.infer<typeof outboxItem>;

/** What an audit row's action was. */
export const auditAction = z.enum([
  'admin.create',
  'admin.reset_password',
  'seat.create',
  'seat.update',
  'seat.reset_password',
  'seat.freeze',
  'seat.unfreeze',
  'account.create',
  'account.update',
  'account.assign',
  'account.set_channel',
  'account.set_team',
  'outbox.retry',
  'glossary.add',
  'glossary.delete',
  'glossary.import',
  'engine_route.set',
  'engine_route.delete',
  'label.create',
  'label.update',
  'label.delete',
]);
export type AuditAction = z.infer<typeof auditAction>;
export const auditTargetType = z.enum([
  'admin',
  'seat',
  'account',
  'outbox',
  'glossary',
  'engine_route',
  'label',
]);
export const auditEntry = z.object({
  audit_id: id,
  at: epochMs,
  /** 'admin': an administrator in the console; 'cli': the command line. */
  actor_type: z.enum(['admin', 'cli']),
  /** The administrator's account; 'cli' for the command line. */
  actor: z.string(),
  action: auditAction,
  target_type: auditTargetType,
  target_id: id,
  /** A readable name of the target (seat account, send_phone, ...). */
  target: z.string(),
  /** The target before and after (null: did not exist / no longer exists). Never a secret. */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

// ---------------------------------------------------------------------------------------------
// Requests and responses

export const adminLoginRequest = z.object({
  account: z.string().trim().min(1, 'required').max(ACCOUNT_MAX),
  password: z.string().min(1, 'required').max(256),
});
export const adminLoginResponse = adminInfo;

export const adminLogoutRequest = z.object({ all_devices: z.boolean().default(false) });
export const adminLogoutResponse = z.object({ revoked: z.number().int().nonnegative() });

export const adminMeRequest = z.object({});
export const adminMeResponse = adminMe;

export const adminSeatsListRequest = z.object({
  /** Substring of the account or nickname. */
  keyword,
  status: z.enum(['all', 'active', 'frozen']).default('all'),
  page_size: pageSize,
  cursor,
});
export const adminSeatsListResponse = paged(adminSeat);

export const adminSeatsCreateRequest = z.object({
  account: accountName,
  password: newPassword,
  /** Default: the account. */
  nickname: nickname.optional(),
});
export const adminSeatsCreateResponse = adminSeat;

export const adminSeatsUpdateRequest = z.object({ seat_id: id, nickname });
export const adminSeatsUpdateResponse = adminSeat;

/** Sets a new password; ends the seat's logins (its consoles get 400002, sockets close). */
export const adminSeatsResetPasswordRequest = z.object({ seat_id: id, password: newPassword });
export const adminSeatsResetPasswordResponse = adminSeat;

/** Freezing ends the seat's logins and closes its push sockets at once; unfreezing allows logins. */
export const adminSeatsFreezeRequest = z.object({ seat_id: id, frozen: z.boolean() });
export const adminSeatsFreezeResponse = adminSeat;

export const adminAccountsListRequest = z.object({
  /** Substring of the send_phone or label. */
  keyword,
  /** Only the accounts of this seat. */
  seat_id: id.optional(),
  /** Only accounts held by no seat. */
  unassigned: z.boolean().default(false),
  channel: channelKind.optional(),
  page_size: pageSize,
  cursor,
});
export const adminAccountsListResponse = paged(adminPhoneAccount);

/** Registers a phone account (platform or sandbox; Telegram is bound with setChannel). */
export const adminAccountsCreateRequest = z.object({
  send_phone: phone,
  label: accountLabel.default(''),
  channel: plainChannelName.default(DEFAULT_CHANNEL),
  /** Assign it to this seat at once. */
  seat_id: id.optional(),
});
export const adminAccountsCreateResponse = adminPhoneAccount;

export const adminAccountsUpdateRequest = z.object({ account_id: id, label: accountLabel });
export const adminAccountsUpdateResponse = adminPhoneAccount;

/** Assigns the account to a seat, or moves it to another: its chats move with it (to Ungrouped). */
export const adminAccountsAssignRequest = z.object({ account_id: id, seat_id: id });
export const adminAccountsAssignResponse = z.object({
  account: adminPhoneAccount,
  /** Chats that moved to the new seat. */
  moved_chats: z.number().int().nonnegative(),
});

/**
 * The account's channel. 'telegram' binds the bot of `bot_token` (checked with Telegram's getMe
 * first; a refused token is 100001 on bot_token, a bot bound elsewhere 400008); 'platform' and
 * 'sandbox' unbind any bot; 'whatsapp' binds a WhatsApp Business number (checked with the Graph
 * API's GET /{phone-number-id} first; refused credentials are 100001 on the field). The chats stay.
 */
/** setChannel's kind for a channel without credentials. */
type PlainSetChannel = z.ZodObject<{ account_id: typeof id; channel: typeof plainChannelName }>;
/** setChannel's kind for a channel with credentials: its name and its fields. */
type CredentialSetChannel = {
  [C in CredentialChannelName]: (typeof CHANNELS)[C]['credentials'] extends z.ZodObject<infer S>
    ? z.ZodObject<{ account_id: typeof id; channel: z.ZodLiteral<C> } & S>
    : never;
}[CredentialChannelName];

export const adminAccountsSetChannelRequest = z.discriminatedUnion('channel', [
  z.object({ account_id: id, channel: plainChannelName }),
  // One variant per channel with credentials: its name and its fields (CHANNELS).
  ...CREDENTIAL_CHANNEL_NAMES.map((channel) =>
    z.object({
      account_id: id,
      channel: z.literal(channel),
      ...CHANNELS[channel].credentials.shape,
    }),
  ),
] as unknown as [PlainSetChannel, ...CredentialSetChannel[]]);
export const adminAccountsSetChannelResponse = adminPhoneAccount;

export const adminAccountsWhatsappStatusRequest = z.object({ account_id: id });
/** null: no WhatsApp number is bound to the account. */
export const adminAccountsWhatsappStatusResponse = whatsappStatus.nullable();

export const adminAccountsTelegramStatusRequest = z.object({ account_id: id });
/** null: no bot is bound to the account. */
export const adminAccountsTelegramStatusResponse = telegramStatus.nullable();

export const TZ_OFFSET_MIN_MAX = 14 * 60;
/** Minutes to add to UTC for the console's local time (UTC+3: 180). "Today" starts at its midnight. */
export const tzOffsetMin = z.number().int().min(-TZ_OFFSET_MIN_MAX).max(TZ_OFFSET_MIN_MAX);
export const adminOverviewRequest = z.object({ tz_offset_min: tzOffsetMin.default(0) });
export const adminOverviewResponse = overview;

export const adminOutboxListRequest = z.object({
  /** Default: both pending and failed. */
  status: outboxStatus.optional(),
  seat_id: id.optional(),
  page_size: pageSize,
  cursor,
});
export const adminOutboxListResponse = paged(outboxItem);

/** A failed delivery tried again now (pending, attempts kept). Anything but failed: 409001. */
export const adminOutboxRetryRequest = z.object({ outbox_id: id });
export const adminOutboxRetryResponse = outboxItem;

/** The audit log, newest first; every filter optional. */
export const adminAuditListRequest = z.object({
  actor: z.string().trim().max(ACCOUNT_MAX).optional(),
  action: auditAction.optional(),
  target_type: auditTargetType.optional(),
  target_id: id.optional(),
  /** From this time (epoch ms, inclusive). */
  since: epochMs.optional(),
  /** Before this time (epoch ms, exclusive). */
  until: epochMs.optional(),
  page_size: pageSize,
  cursor,
});
export const adminAuditListResponse = paged(auditEntry);

// ---------------------------------------------------------------------------------------------
// The owner's charts (series over local days) and their exports

/** The longest range one series call answers (exports stream up to STATS_EXPORT_DAYS_MAX). */
export const STATS_DAYS_MAX = 92;
export const STATS_EXPORT_DAYS_MAX = 366;
/** An IANA time zone the server knows ('Europe/Berlin', 'Asia/Kolkata', 'UTC'). */
export const timeZone = z
  .string()
  .trim()
  .min(1, 'required')
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'unknown time zone');
/** A local calendar day, 'YYYY-MM-DD'. */
export const localDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
  .refine((d) => {
    // An impossible date (month 00) parses to NaN: toISOString would throw on it.
    const at = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(at) && new Date(at).toISOString().startsWith(d);
  }, 'no such day');

const count = z.number().int().nonnegative();
export const statsBucket = z.object({
  /** The bucket's local hour or day, as UTC instants (end exclusive). */
  start: epochMs,
  end: epochMs,
  /** Customer messages received in the bucket. */
  messages_in: count,
  /** Messages sent by the seat(s) in the bucket. */
  messages_out: count,
  /** Chats whose last message was the customer's at the bucket's end (now for the current one); null for buckets not begun. */
  waiting: count.nullable(),
  /** Replies in the bucket that ended a customer's wait. */
  first_responses: count,
  /** Median and 90th percentile (nearest rank) of those waits, ms; null without replies. */
  first_response_median_ms: count.nullable(),
  first_response_p90_ms: count.nullable(),
  /** Characters sent to each engine in the bucket (engines with none left out). */
  engine_characters: z.record(z.string(), count),
  /** Characters asked for translation in the bucket that the shared memory answered. */
  memory_characters: count,
  /** Glossary terms kept or fixed in the texts translated in the bucket. */
  glossary_hits: count,
  /**
   * Replies translated back into the operator's language by an engine in the bucket (a
   * preview's round trip). A repeat the memory answered is not counted again: its characters
   * are in memory_characters.
   */
  back_translations: count,
  /** Of those back-translations, the ones with a flag (a fact lost or added on the way). */
  flagged_round_trips: count,
  /**
   * Team accounts' chats assigned to a member in the bucket: taken from the queue, routed, or
   * handed over (by a member, or by the owner when a member leaves). A seat's series: to it.
   */
  assignments: count,
  /** Of those assignments, the hand-overs. */
  handovers: count,
  /** Chats given back to the queue (by a member, or when their member left the team). */
  back_to_queue: count,
  /** Time in the queue of the chats taken or routed in the bucket, ms: mean and 90th percentile (nearest rank); null without any. */
  queue_wait_avg_ms: count.nullable(),
  queue_wait_p90_ms: count.nullable(),
});
export type StatsBucket = z.infer<typeof statsBucket>;

export const statsSeries = z.object({
  /** When it was read. */
  at: epochMs,
  time_zone: z.string(),
  from: z.string(),
  to: z.string(),
  /** 'hour' for one day, 'day' for longer ranges. */
  bucket: z.enum(['hour', 'day']),
  /** null: every seat. */
  seat_id: id.nullable(),
  /** Every bucket of the range, oldest first (only those ending after `since` when it was sent). */
  buckets: z.array(statsBucket),
});
export type StatsSeries = z.infer<typeof statsSeries>;

const statsRange = {
  time_zone: timeZone,
  /** First and last local day of the range (inclusive). */
  from: localDay,
  to: localDay,
};
/** `to` not before `from`, and at most `maxDays` days. */
export function rangeProblem(r: { from: string; to: string }, maxDays: number): string | null {
  if (r.to < r.from) return 'before from';
  if ((Date.parse(r.to) - Date.parse(r.from)) / 86_400_000 >= maxDays) {
    return `at most ${maxDays} days`;
  }
  return null;
}
const rangeCheck = (maxDays: number) => (r: { from: string; to: string }, ctx: z.RefinementCtx) => {
  const problem = rangeProblem(r, maxDays);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['to'] });
};

/** The charts' series over local days of `time_zone`: hours for one day, else days. */
export const adminStatsSeriesRequest = z
  .object({
    ...statsRange,
    /** One seat's series; default every seat. */
    seat_id: id.optional(),
    /** Only the buckets ending after this instant (a live update refetches the current one). */
    since: epochMs.optional(),
  })
  .superRefine(rangeCheck(STATS_DAYS_MAX));
export const adminStatsSeriesResponse = statsSeries;

/** One seat's busiest hours and longest waits: counts and ages only, never a chat's contents. */
export const adminStatsSeatRequest = z
  .object({ ...statsRange, seat_id: id })
  .superRefine(rangeCheck(STATS_DAYS_MAX));
export const adminStatsSeatResponse = z.object({
  seat_id: id,
  /** Messages per local hour of the day (0-23) over the range. */
  busiest_hours: z.array(
    z.object({ hour: z.number().int().min(0).max(23), messages_in: count, messages_out: count }),
  ),
  /** The chats waiting longest now (at most 10), oldest first: when the wait began and how many customer messages wait. */
  waiting_longest: z.array(z.object({ waiting_since: epochMs, unanswered: count })),
});
export type AdminStatsSeat = z.infer<typeof adminStatsSeatResponse>;

// ---------------------------------------------------------------------------------------------
// CSV exports: GET with the admin token in `Authorization`, the filters as query parameters;
// the answer streams as text/csv (an error before the first row is the usual JSON envelope).

export const ADMIN_EXPORT_PATHS = {
  series: '/v1/admin/export/series.csv',
  seats: '/v1/admin/export/seats.csv',
  seatTotals: '/v1/admin/export/seat-totals.csv',
  audit: '/v1/admin/export/audit.csv',
} as const;

/** A series' buckets over up to STATS_EXPORT_DAYS_MAX local days. */
export const adminExportSeriesQuery = z
  .object({
    ...statsRange,
    seat_id: queryId.optional(),
  })
  .superRefine(rangeCheck(STATS_EXPORT_DAYS_MAX));

/** The overview's per-seat table, as shown (today at tz_offset_min). */
export const adminExportSeatsQuery = z.object({
  tz_offset_min: z.coerce.number().int().min(-TZ_OFFSET_MIN_MAX).max(TZ_OFFSET_MIN_MAX).default(0),
});

/**
 * The per-seat table over up to STATS_EXPORT_DAYS_MAX local days: each seat's messages, first
 * responses and translation characters in the range, and its chats waiting now.
 */
export const adminExportSeatTotalsQuery = z
  .object(statsRange)
  .superRefine(rangeCheck(STATS_EXPORT_DAYS_MAX));

/** The audit log with the list's filters, newest first, every row. */
export const adminExportAuditQuery = z.object({
  actor: z.string().trim().max(ACCOUNT_MAX).optional(),
  action: auditAction.optional(),
  target_type: auditTargetType.optional(),
  target_id: queryId.optional(),
  since: queryEpochMs.optional(),
  until: queryEpochMs.optional(),
});

// ---------------------------------------------------------------------------------------------
// The workspace's glossary and its engines per language pair (issue 36)

/** Entries of a workspace's glossary: an import past it is refused whole with 500003. */
export const GLOSSARY_MAX = 10_000;
/** Patterns among them: each is tried at every word start of a text, so they are fewer. */
export const GLOSSARY_PATTERNS_MAX = 100;
/** A term (or a fixed translation) is a word or a short phrase: DeepL takes 1,024 bytes. */
export const GLOSSARY_TERM_MAX = 100;
/** Engines of one pair, in fallback order. */
export const ENGINE_ROUTE_ENGINES_MAX = 3;

/**
 * `keep`: a name never translated (matched as a whole word, case-insensitively). `pattern`: the
 * same for every text it matches: `#` is one digit, `?` one letter or digit, `*` one to 32
 * letters or digits (at most one `*`), `\` takes the next character as it is; nothing else is
 * special, so a pattern cannot backtrack without bound. `fixed`: `term` always becomes
 * `translation` from `source_lang` to `target_lang` (base languages: EN covers EN-GB and EN-US).
 */
export const glossaryKind = z.enum(['keep', 'pattern', 'fixed']);
export type GlossaryKind = z.infer<typeof glossaryKind>;

/** What makes a pattern unusable; null when it is one. */
export function glossaryPatternProblem(pattern: string): string | null {
  let stars = 0;
  let literal = 0;
  let wild = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      if (i === pattern.length - 1) return 'ends with \\';
      i++;
      literal++;
    } else if (c === '*') {
      stars++;
      wild++;
    } else if (c === '#' || c === '?') wild++;
    else literal++;
  }
  if (stars > 1) return 'at most one *';
  if (wild === 0) return 'no # ? or *: use kind keep';
  if (literal === 0 && stars > 0) return 'a * needs some fixed characters beside it';
  return null;
}

const glossaryText = z
  .string()
  .trim()
  .min(1, 'required')
  .max(GLOSSARY_TERM_MAX)
  // DeepL's glossary entries are TSV lines: no tab, newline or other control character.
  .refine((t) => !/\p{Cc}/u.test(t), 'no control characters');

export const glossaryEntryInput = z
  .object({
    kind: glossaryKind,
    term: glossaryText,
    /** `fixed` only: what the term becomes. */
    translation: glossaryText.optional(),
    /** `fixed` only: the pair it applies to. */
    source_lang: translationLanguage.optional(),
    target_lang: translationLanguage.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'fixed') {
      for (const key of ['translation', 'source_lang', 'target_lang'] as const) {
        if (v[key] === undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'required' });
      }
      if (
        v.source_lang &&
        v.target_lang &&
        baseLanguage(v.source_lang) === baseLanguage(v.target_lang)
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['target_lang'],
          message: 'same language as source_lang',
        });
      }
    } else {
      for (const key of ['translation', 'source_lang', 'target_lang'] as const) {
        if (v[key] !== undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'fixed only' });
      }
    }
    if (v.kind === 'pattern') {
      const problem = glossaryPatternProblem(v.term);
      if (problem) ctx.addIssue({ code: 'custom', path: ['term'], message: problem });
    }
  });

export const glossaryEntry = z.object({
  entry_id: id,
  kind: glossaryKind,
  term: z.string(),
  translation: z.string().nullable(),
  /** Base languages (EN, PT, ZH); null unless `fixed`. */
  source_lang: translationLanguage.nullable(),
  target_lang: translationLanguage.nullable(),
  created_at: epochMs,
});
export type GlossaryEntry = z.infer<typeof glossaryEntry>;

/** The glossary, oldest entry first; `version` rises with every change. */
export const adminGlossaryListRequest = z.object({
  kind: glossaryKind.optional(),
  page_size: pageSize,
  cursor,
});
export const adminGlossaryListResponse = paged(glossaryEntry).extend({
  version: z.number().int().nonnegative(),
  /** Entries of the whole glossary (every kind). */
  entries: z.number().int().nonnegative(),
  max_entries: z.number().int().positive(),
});

/**
 * One entry added. The same kind, term (case-insensitively) and pair again: 500002; past
 * GLOSSARY_MAX entries or GLOSSARY_PATTERNS_MAX patterns: 500003.
 */
export const adminGlossaryAddRequest = glossaryEntryInput;
export const adminGlossaryAddResponse = z.object({
  entry: glossaryEntry,
  version: z.number().int(),
});

export const adminGlossaryDeleteRequest = z.object({ entry_id: id });
export const adminGlossaryDeleteResponse = z.object({ version: z.number().int() });

/**
 * Entries added at once (a list kept elsewhere); ones already there are skipped. Past
 * GLOSSARY_MAX entries (or GLOSSARY_PATTERNS_MAX patterns) in all: 500003, nothing added.
 */
export const adminGlossaryImportRequest = z.object({
  entries: z.array(glossaryEntryInput).min(1).max(GLOSSARY_MAX),
});
export const adminGlossaryImportResponse = z.object({
  added: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  version: z.number().int(),
});

/** A language pair's engines, in fallback order. `auto`: texts whose language is detected. */
export const engineRoute = z.object({
  route_id: id,
  source_lang: z.union([translationLanguage, z.literal('auto')]),
  target_lang: translationLanguage,
  engines: z.array(z.string()),
});
export type EngineRoute = z.infer<typeof engineRoute>;

export const adminEngineRoutesListRequest = z.object({});
export const adminEngineRoutesListResponse = z.object({
  /** The engines this server is configured with (PARLEY_TRANSLATION_PROVIDERS), in order. */
  engines: z.array(z.string()),
  list: z.array(engineRoute),
});

/**
 * Sets the engines of a pair (base languages), replacing what it had. An engine this server is
 * not configured with: 422003.
 */
export const adminEngineRoutesSetRequest = z
  .object({
    source_lang: z.union([translationLanguage, z.literal('auto')]),
    target_lang: translationLanguage,
    engines: z
      .array(z.string().trim().min(1).max(32))
      .min(1)
      .max(ENGINE_ROUTE_ENGINES_MAX)
      .refine((e) => new Set(e).size === e.length, 'an engine twice'),
  })
  .superRefine((v, ctx) => {
    if (v.source_lang !== 'auto' && baseLanguage(v.source_lang) === baseLanguage(v.target_lang)) {
      ctx.addIssue({
        code: 'custom',
        path: ['target_lang'],
        message: 'same language as source_lang',
      });
    }
  });
export const adminEngineRoutesSetResponse = engineRoute;

export const adminEngineRoutesDeleteRequest = z.object({ route_id: id });
export const adminEngineRoutesDeleteResponse = z.object({});
/**
 * Team accounts (issue 35): a phone account staffed by several member seats, its chats each held
 * by one member or waiting in its queue (docs/decisions/2026-11-29-team-accounts.md).
 */
export const adminTeamMember = z.object({
  seat_id: id,
  account: z.string(),
  nickname: z.string(),
  frozen: z.boolean(),
  /** Chats of the account this member holds. */
  open_chats: z.number().int().nonnegative(),
});
export type AdminTeamMember = z.infer<typeof adminTeamMember>;
export const adminTeam = z.object({
  account_id: id,
  send_phone: z.string(),
  label: z.string(),
  routing: teamRouting,
  capacity: z.number().int().min(1).max(TEAM_CAPACITY_MAX),
  members: z.array(adminTeamMember),
  queue_count: z.number().int().nonnegative(),
  /** When the chat waiting longest entered the queue; null when none waits. */
  oldest_since: epochMs.nullable(),
});
export type AdminTeam = z.infer<typeof adminTeam>;

export const adminTeamsListRequest = z.object({});
export const adminTeamsListResponse = z.object({ teams: z.array(adminTeam) });

/**
 * Make an account a team account, or change one: the whole member list, routing and capacity at
 * once. The chats of a member left out go back to the queue; an account that becomes a team
 * account keeps its chats with its seat when that seat is a member, else they wait in the queue.
 */
export const adminTeamsSetRequest = z.object({
  account_id: id,
  routing: teamRouting,
  capacity: z.number().int().min(1).max(TEAM_CAPACITY_MAX),
  member_ids: z.array(id).min(1).max(TEAM_MEMBERS_MAX),
  /**
   * Where the chats of the members left out go: this member (one of member_ids, not frozen:
   * else 409003 / 409004 and nothing changes), told at once as by a hand-over; absent: back to
   * the queue.
   */
  receiver_id: id.optional(),
});
export const adminTeamsSetResponse = z.object({
  team: adminTeam,
  /** Chats that went back to the queue (their member left the team, or the account's seat is not one). */
  queued_chats: z.number().int().nonnegative(),
  /** Chats of the members left out that went to receiver_id. */
  handed_chats: z.number().int().nonnegative(),
});

/** The owner reads every private note of a team account (newest first, at most 50), or those containing `keyword`. */
export const adminTeamsNotesRequest = z.object({
  account_id: id,
  keyword: z.string().trim().max(200).optional(),
});
export const adminTeamsNotesResponse = z.object({ notes: z.array(teamNote) });
