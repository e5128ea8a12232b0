import type { AdminCallInput, AdminCallPath, AdminCallResponse } from '../calls/admin-calls.js';
import type {
  AdminPhoneAccount,
  AdminSeat,
  AuditEntry,
  GlossaryEntry,
  OutboxItem,
  Overview,
  OverviewFigures,
  StatsSeries,
} from '../calls/admin.js';
import { NO_ACCOUNT_CHANNEL_FIELDS } from '../calls/admin.js';
import { ERROR_MESSAGES, type ErrorCode } from '../codes.js';
import type { CallExamples, RefusalExample } from './call-examples.js';
import type { ExampleWorld } from './example-world.js';

type AdminExamplesOf<P extends AdminCallPath> = (
  w: ExampleWorld,
) => CallExamples<AdminCallInput<P>, AdminCallResponse<P>>;

const MINUTE = 60_000;

/** An admin refusal: sent with the admin token unless told otherwise. */
const refusal = (
  w: ExampleWorld,
  summary: string,
  request: unknown,
  code: ErrorCode,
  opts: { token?: string | null; data?: unknown; msg?: string } = {},
): RefusalExample => ({
  summary,
  request,
  token: opts.token === undefined ? w.admin.token : opts.token,
  code,
  msg: opts.msg ?? ERROR_MESSAGES[code],
  data: opts.data ?? null,
});

/** The boundary: a seat's token opens no admin call. */
const seatToken = (w: ExampleWorld, request: unknown = {}) =>
  refusal(w, "A seat's token (the seat and admin tokens are apart)", request, '400002', {
    token: w.token,
  });

function seat(w: ExampleWorld, overrides: Partial<AdminSeat> = {}): AdminSeat {
  return {
    seat_id: w.admin.seatId,
    account: w.admin.seatAccount,
    nickname: w.admin.seatAccount,
    frozen: false,
    online: false,
    last_seen_at: null,
    phone_accounts: [w.admin.accountPhone],
    open_chats: 0,
    unread: 0,
    waiting_chats: 0,
    oldest_waiting_since: null,
    created_at: w.now - 60 * MINUTE,
    ...overrides,
  };
}

function account(w: ExampleWorld, overrides: Partial<AdminPhoneAccount> = {}): AdminPhoneAccount {
  return {
    account_id: w.admin.accountId,
    send_phone: w.admin.accountPhone,
    label: 'Desk 3',
    channel: 'platform',
    seat_id: w.admin.seatId,
    seat_account: w.admin.seatAccount,
    chats: 0,
    // Each channel's field of the account: null on the platform.
    ...NO_ACCOUNT_CHANNEL_FIELDS,
    created_at: w.now - 60 * MINUTE,
    ...overrides,
  };
}

const figures = (overrides: Partial<OverviewFigures> = {}): OverviewFigures => ({
  messages_in_today: 6,
  messages_out_today: 2,
  waiting_chats: 3,
  longest_wait_ms: 42 * MINUTE,
  median_first_response_ms: 95_000,
  first_responses_24h: 1,
  outbox_pending: 0,
  outbox_failed: 1,
  ...overrides,
});

function overview(w: ExampleWorld): Overview {
  return {
    at: w.now,
    day_start: Math.floor(w.now / 86_400_000) * 86_400_000,
    totals: figures(),
    seats: [
      {
        seat_id: w.seatId,
        account: w.account,
        nickname: w.nickname,
        online: true,
        frozen: false,
        ...figures(),
      },
    ],
    translation: {
      engines: [{ engine: 'apertium', characters: 1_240 }],
      memory_characters: 310,
      total_characters: 1_550,
      memory_share: 0.2,
    },
  };
}

function outboxItem(w: ExampleWorld, overrides: Partial<OutboxItem> = {}): OutboxItem {
  return {
    outbox_id: w.admin.failedOutboxId,
    msg_id: w.admin.failedMsgId,
    kind: 'message',
    status: 'failed',
    attempts: 5,
    last_error: 'platform answered 400',
    next_at: w.now - 5 * MINUTE,
    created_at: w.now - 10 * MINUTE,
    updated_at: w.now - 5 * MINUTE,
    seat_id: w.seatId,
    seat_account: w.account,
    session_id: w.sessions.main,
    send_phone: w.phone,
    receiver_phone: w.customer,
    preview: 'Your parcel left the warehouse.',
    ...overrides,
  };
}

function auditEntry(w: ExampleWorld): AuditEntry {
  return {
    audit_id: 7,
    at: w.now - 2 * MINUTE,
    actor_type: 'admin',
    actor: w.admin.account,
    action: 'seat.update',
    target_type: 'seat',
    target_id: w.admin.seatId,
    target: w.admin.seatAccount,
    before: { account: w.admin.seatAccount, nickname: w.admin.seatAccount, frozen: false },
    after: { account: w.admin.seatAccount, nickname: 'Erin (nights)', frozen: false },
  };
}

function glossaryEntry(w: ExampleWorld): GlossaryEntry {
  return {
    entry_id: 1,
    kind: 'keep',
    term: 'Parley Cloud',
    translation: null,
    source_lang: null,
    target_lang: null,
    created_at: w.now,
  };
}

/**
 * Examples of every admin call: a valid request with its success answer (sent with the admin
 * token) and refusals with the whole answer they get, replayed by the server's contract test.
 */
export const ADMIN_CALL_EXAMPLES: { [P in AdminCallPath]: AdminExamplesOf<P> } = {
  '/v1/admin/teams/list': (w) => ({
    success: [
      {
        summary: 'No team account yet',
        request: {},
        token: w.admin.token,
        response: { teams: [] },
      },
    ],
    refusals: [seatToken(w)],
  }),
  '/v1/admin/teams/set': (w) => ({
    success: [
      {
        summary: 'Make an account a team account of two seats, routed automatically',
        request: {
          account_id: w.admin.accountId,
          routing: 'automatic',
          capacity: 5,
          member_ids: [w.admin.seatId, w.admin.otherSeatId],
        },
        token: w.admin.token,
        response: {
          team: {
            account_id: w.admin.accountId,
            send_phone: w.phone,
            label: w.phoneLabel,
            routing: 'automatic',
            capacity: 5,
            members: [
              {
                seat_id: w.admin.seatId,
                account: w.admin.seatAccount,
                nickname: w.admin.seatAccount,
                frozen: false,
                open_chats: 0,
              },
              {
                seat_id: w.admin.otherSeatId,
                account: 'bob',
                nickname: 'bob',
                frozen: false,
                open_chats: 0,
              },
            ],
            queue_count: 0,
            oldest_since: null,
          },
          queued_chats: 0,
          handed_chats: 0,
        },
        replayed: false,
      },
    ],
    refusals: [
      refusal(
        w,
        'No such seat',
        { account_id: w.admin.accountId, routing: 'manual', capacity: 5, member_ids: [999_999] },
        '200001',
      ),
      seatToken(w, {
        account_id: w.admin.accountId,
        routing: 'manual',
        capacity: 5,
        member_ids: [1],
      }),
    ],
  }),
  '/v1/admin/teams/notes': (w) => ({
    success: [
      {
        summary: "A team account's private notes",
        request: { account_id: w.admin.accountId },
        token: w.admin.token,
        response: { notes: [] },
        replayed: false,
      },
    ],
    refusals: [
      refusal(w, 'An account that is not a team account', { account_id: 999_999 }, '400001'),
      seatToken(w, { account_id: 1 }),
    ],
  }),
  '/v1/admin/login': (w) => ({
    success: [
      {
        summary: 'Administrator login',
        request: { account: w.admin.account, password: w.admin.password },
        response: {
          token: w.admin.token,
          admin_id: w.admin.adminId,
          account: w.admin.account,
          expires_at: w.admin.expiresAt,
        },
      },
    ],
    refusals: [
      refusal(
        w,
        'Wrong password',
        { account: w.admin.account, password: 'not-the-password' },
        '100005',
        { token: null },
      ),
      refusal(
        w,
        "A seat's account is not an administrator's",
        { account: w.account, password: w.password },
        '200001',
        { token: null },
      ),
    ],
  }),
  '/v1/admin/logout': (w) => ({
    success: [
      {
        summary: 'End this login',
        request: { all_devices: false },
        token: w.admin.spareToken,
        response: { revoked: 1 },
      },
    ],
    refusals: [seatToken(w, { all_devices: false })],
  }),
  '/v1/admin/me': (w) => ({
    success: [
      {
        summary: 'Who the token is',
        request: {},
        token: w.admin.token,
        response: {
          admin_id: w.admin.adminId,
          account: w.admin.account,
          created_at: w.now - 86_400_000,
          expires_at: w.admin.expiresAt,
        },
      },
    ],
    refusals: [seatToken(w)],
  }),
  '/v1/admin/seats/list': (w) => ({
    success: [
      {
        summary: 'The first page of seats',
        request: { page_size: 50 },
        token: w.admin.token,
        response: {
          list: [
            seat(w, {
              seat_id: w.seatId,
              account: w.account,
              nickname: w.nickname,
              online: true,
              last_seen_at: w.now - MINUTE,
              phone_accounts: [w.phone],
              open_chats: 5,
              unread: 2,
              waiting_chats: 3,
              oldest_waiting_since: w.now - 42 * MINUTE,
            }),
            seat(w),
          ],
          total: 2,
          next_cursor: null,
        },
      },
    ],
    refusals: [
      seatToken(w),
      refusal(w, 'A page size over the limit', { page_size: 500 }, '100001', {
        msg: `${ERROR_MESSAGES['100001']}: page_size`,
        data: { fields: [{ path: 'page_size', message: 'Too big: expected number to be <=200' }] },
      }),
    ],
  }),
  '/v1/admin/seats/create': (w) => ({
    success: [
      {
        summary: 'Create a seat',
        request: {
          account: w.admin.newSeatAccount,
          password: 'carol-password-1',
          nickname: 'Carol',
        },
        token: w.admin.token,
        response: seat(w, {
          seat_id: 4,
          account: w.admin.newSeatAccount,
          nickname: 'Carol',
          phone_accounts: [],
          created_at: w.now,
        }),
      },
    ],
    refusals: [
      refusal(
        w,
        'An account already taken',
        { account: w.account, password: 'long-enough-1' },
        '500002',
      ),
      seatToken(w),
    ],
  }),
  '/v1/admin/seats/update': (w) => ({
    success: [
      {
        summary: "Change a seat's nickname",
        request: { seat_id: w.admin.seatId, nickname: 'Erin (nights)' },
        token: w.admin.token,
        response: seat(w, { nickname: 'Erin (nights)' }),
      },
    ],
    refusals: [
      refusal(w, 'No such seat', { seat_id: 999_999, nickname: 'Erin' }, '200001'),
      seatToken(w),
    ],
  }),
  '/v1/admin/seats/resetPassword': (w) => ({
    success: [
      {
        summary: "Set a seat's password (its logins end)",
        request: { seat_id: w.admin.seatId, password: 'erin-new-password' },
        token: w.admin.token,
        response: seat(w),
      },
    ],
    refusals: [
      refusal(w, 'A password too short', { seat_id: w.admin.seatId, password: 'short' }, '100001', {
        msg: `${ERROR_MESSAGES['100001']}: password`,
        data: { fields: [{ path: 'password', message: 'at least 8 characters' }] },
      }),
      seatToken(w),
    ],
  }),
  '/v1/admin/seats/freeze': (w) => ({
    success: [
      {
        summary: 'Freeze a seat (its logins end, its push sockets close)',
        request: { seat_id: w.admin.seatId, frozen: true },
        token: w.admin.token,
        response: seat(w, { frozen: true }),
      },
    ],
    refusals: [
      refusal(w, 'No such seat', { seat_id: 999_999, frozen: true }, '200001'),
      seatToken(w),
    ],
  }),
  '/v1/admin/accounts/list': (w) => ({
    success: [
      {
        summary: "A seat's phone accounts",
        request: { seat_id: w.admin.seatId },
        token: w.admin.token,
        response: { list: [account(w)], total: 1, next_cursor: null },
      },
    ],
    refusals: [seatToken(w)],
  }),
  '/v1/admin/accounts/create': (w) => ({
    success: [
      {
        summary: 'Register a sandbox account for a seat',
        request: {
          send_phone: w.admin.newPhone,
          label: 'Sandbox desk',
          channel: 'sandbox',
          seat_id: w.admin.seatId,
        },
        token: w.admin.token,
        response: account(w, {
          account_id: 4,
          send_phone: w.admin.newPhone,
          label: 'Sandbox desk',
          channel: 'sandbox',
          created_at: w.now,
        }),
      },
    ],
    refusals: [
      refusal(w, 'A number already registered', { send_phone: w.phone }, '500002'),
      seatToken(w),
    ],
  }),
  '/v1/admin/accounts/update': (w) => ({
    success: [
      {
        summary: 'Label a phone account',
        request: { account_id: w.admin.accountId, label: 'Desk 3 (nights)' },
        token: w.admin.token,
        response: account(w, { label: 'Desk 3 (nights)' }),
      },
    ],
    refusals: [
      refusal(w, 'No such account', { account_id: 999_999, label: 'x' }, '400001'),
      seatToken(w),
    ],
  }),
  '/v1/admin/accounts/assign': (w) => ({
    success: [
      {
        summary: 'Move an account (and its chats) to another seat',
        request: { account_id: w.admin.accountId, seat_id: w.admin.otherSeatId },
        token: w.admin.token,
        response: {
          account: account(w, { seat_id: w.admin.otherSeatId, seat_account: 'bob' }),
          moved_chats: 0,
        },
      },
    ],
    refusals: [
      refusal(w, 'No such seat', { account_id: w.admin.accountId, seat_id: 999_999 }, '200001'),
      seatToken(w),
    ],
  }),
  '/v1/admin/accounts/setChannel': (w) => ({
    success: [
      {
        summary: 'Serve the account through the customer sandbox',
        request: { account_id: w.admin.accountId, channel: 'sandbox' },
        token: w.admin.token,
        response: account(w, {
          channel: 'sandbox',
          seat_id: w.admin.otherSeatId,
          seat_account: 'bob',
        }),
      },
    ],
    refusals: [
      refusal(
        w,
        'A bot token of the wrong shape',
        { account_id: w.admin.accountId, channel: 'telegram', bot_token: 'not-a-token' },
        '100001',
        {
          msg: `${ERROR_MESSAGES['100001']}: bot_token`,
          data: {
            fields: [
              { path: 'bot_token', message: 'a bot token like 123456:ABC-DEF… (from @BotFather)' },
            ],
          },
        },
      ),
      seatToken(w),
    ],
  }),
  '/v1/admin/accounts/telegramStatus': (w) => ({
    success: [
      {
        summary: 'An account with no bot bound',
        request: { account_id: w.admin.accountId },
        token: w.admin.token,
        response: null,
      },
    ],
    refusals: [refusal(w, 'No such account', { account_id: 999_999 }, '400001'), seatToken(w)],
  }),
  '/v1/admin/accounts/whatsappStatus': (w) => ({
    success: [
      {
        summary: 'An account with no WhatsApp number bound',
        request: { account_id: w.admin.accountId },
        token: w.admin.token,
        response: null,
      },
    ],
    refusals: [refusal(w, 'No such account', { account_id: 999_999 }, '400001'), seatToken(w)],
  }),
  '/v1/admin/overview': (w) => ({
    success: [
      {
        summary: "Today's numbers (UTC)",
        request: { tz_offset_min: 0 },
        token: w.admin.token,
        response: overview(w),
      },
    ],
    refusals: [seatToken(w)],
  }),
  '/v1/admin/outbox/list': (w) => ({
    success: [
      {
        summary: 'Failed deliveries',
        request: { status: 'failed' },
        token: w.admin.token,
        response: { list: [outboxItem(w)], total: 1, next_cursor: null },
      },
    ],
    refusals: [seatToken(w)],
  }),
  '/v1/admin/outbox/retry': (w) => ({
    success: [
      {
        summary: 'Try a failed delivery again',
        request: { outbox_id: w.admin.failedOutboxId },
        token: w.admin.token,
        response: outboxItem(w, { status: 'pending', next_at: w.now, updated_at: w.now }),
      },
    ],
    refusals: [refusal(w, 'No such delivery', { outbox_id: 999_999 }, '400001'), seatToken(w)],
  }),
  '/v1/admin/audit/list': (w) => ({
    success: [
      {
        summary: "A seat's audit log",
        request: { target_type: 'seat', target_id: w.admin.seatId },
        token: w.admin.token,
        response: { list: [auditEntry(w)], total: 1, next_cursor: null },
      },
    ],
    refusals: [seatToken(w)],
  }),
  '/v1/admin/stats/series': (w) => ({
    success: [
      {
        summary: "One seat's day by hour in a half-hour zone",
        request: {
          time_zone: 'Asia/Kolkata',
          from: '2026-03-08',
          to: '2026-03-08',
          seat_id: w.admin.seatId,
        },
        token: w.admin.token,
        response: statsSeries(w),
      },
    ],
    refusals: [
      refusal(
        w,
        'A time zone the server does not know',
        { time_zone: 'Mars/Olympus', from: '2026-03-08', to: '2026-03-08' },
        '100001',
        {
          msg: `${ERROR_MESSAGES['100001']}: time_zone`,
          data: { fields: [{ path: 'time_zone', message: 'unknown time zone' }] },
        },
      ),
      refusal(
        w,
        'A range over 92 days',
        { time_zone: 'UTC', from: '2026-01-01', to: '2026-06-30' },
        '100001',
        {
          msg: `${ERROR_MESSAGES['100001']}: to`,
          data: { fields: [{ path: 'to', message: 'at most 92 days' }] },
        },
      ),
      seatToken(w, { time_zone: 'UTC', from: '2026-03-08', to: '2026-03-08' }),
    ],
  }),
  '/v1/admin/stats/seat': (w) => ({
    success: [
      {
        summary: "A seat's busiest hours this week and its longest waits",
        request: {
          time_zone: 'Europe/Berlin',
          from: '2026-03-02',
          to: '2026-03-08',
          seat_id: w.admin.seatId,
        },
        token: w.admin.token,
        response: {
          seat_id: w.admin.seatId,
          busiest_hours: Array.from({ length: 24 }, (_, hour) => ({
            hour,
            messages_in: hour === 10 ? 3 : 0,
            messages_out: hour === 10 ? 2 : 0,
          })),
          waiting_longest: [{ waiting_since: w.now - 90 * MINUTE, unanswered: 2 }],
        },
      },
    ],
    refusals: [
      refusal(
        w,
        'No such seat',
        { time_zone: 'UTC', from: '2026-03-08', to: '2026-03-08', seat_id: 999_999 },
        '400001',
      ),
      seatToken(w, { time_zone: 'UTC', from: '2026-03-08', to: '2026-03-08', seat_id: 1 }),
    ],
  }),
  '/v1/admin/glossary/list': (w) => ({
    success: [
      {
        summary: 'The glossary, first page',
        request: {},
        token: w.admin.token,
        response: {
          list: [glossaryEntry(w)],
          total: 1,
          next_cursor: null,
          version: 1,
          entries: 1,
          max_entries: 10_000,
        },
        replayed: false,
      },
      {
        summary: 'Only the fixed translations',
        request: { kind: 'fixed', page_size: 20 },
        token: w.admin.token,
        response: {
          list: [],
          total: 0,
          next_cursor: null,
          version: 0,
          entries: 0,
          max_entries: 10_000,
        },
      },
    ],
    refusals: [seatToken(w)],
  }),
  '/v1/admin/glossary/add': (w) => ({
    success: [
      {
        summary: 'A product name that is never translated',
        request: { kind: 'keep', term: 'Parley Cloud' },
        token: w.admin.token,
        response: { entry: glossaryEntry(w), version: 1 },
      },
    ],
    refusals: [
      refusal(
        w,
        'A fixed translation without its pair',
        { kind: 'fixed', term: 'order', translation: 'pedido' },
        '100001',
        {
          msg: 'Parameter error: source_lang',
          data: {
            fields: [
              { path: 'source_lang', message: 'required' },
              { path: 'target_lang', message: 'required' },
            ],
          },
        },
      ),
      seatToken(w, { kind: 'keep', term: 'Parley' }),
    ],
  }),
  '/v1/admin/glossary/delete': (w) => ({
    success: [
      {
        summary: 'Remove an entry',
        request: { entry_id: 1 },
        token: w.admin.token,
        response: { version: 2 },
      },
    ],
    refusals: [refusal(w, 'No such entry', { entry_id: 999_999 }, '400001'), seatToken(w)],
  }),
  '/v1/admin/glossary/import': (w) => ({
    success: [
      {
        summary: 'An order-number pattern and a fixed translation',
        request: {
          entries: [
            { kind: 'pattern', term: 'ORD-######' },
            {
              kind: 'fixed',
              term: 'order',
              translation: 'pedido',
              source_lang: 'EN',
              target_lang: 'ES',
            },
          ],
        },
        token: w.admin.token,
        response: { added: 2, skipped: 0, version: 3 },
      },
    ],
    refusals: [seatToken(w, { entries: [{ kind: 'keep', term: 'Parley' }] })],
  }),
  '/v1/admin/engine_routes/list': (w) => ({
    success: [
      {
        summary: 'The configured engines and the pairs given their own',
        request: {},
        token: w.admin.token,
        response: { engines: ['apertium'], list: [] },
      },
    ],
    refusals: [seatToken(w)],
  }),
  '/v1/admin/engine_routes/set': (w) => ({
    success: [
      {
        summary: 'Spanish to Portuguese through Apertium',
        request: { source_lang: 'ES', target_lang: 'PT', engines: ['apertium'] },
        token: w.admin.token,
        response: { route_id: 1, source_lang: 'ES', target_lang: 'PT', engines: ['apertium'] },
      },
    ],
    refusals: [
      refusal(
        w,
        'An engine this server is not configured with',
        { source_lang: 'EN', target_lang: 'DE', engines: ['deepl'] },
        '422003',
        { data: { engines: ['apertium'] } },
      ),
      seatToken(w, { source_lang: 'EN', target_lang: 'DE', engines: ['apertium'] }),
    ],
  }),
  '/v1/admin/engine_routes/delete': (w) => ({
    success: [
      {
        summary: "Forget a pair's engines",
        request: { route_id: 1 },
        token: w.admin.token,
        response: {},
      },
    ],
    refusals: [refusal(w, 'No such pair', { route_id: 999_999 }, '400001'), seatToken(w)],
  }),
  '/v1/admin/labels/list': (w) => ({
    success: [
      {
        summary: 'The labels',
        request: {},
        token: w.admin.token,
        response: { labels: [{ label_id: 1, name: 'VIP', color: 'green', chats: 3 }] },
      },
    ],
    refusals: [seatToken(w)],
  }),
  '/v1/admin/labels/create': (w) => ({
    success: [
      {
        summary: 'Define a label',
        request: { name: 'VIP', color: 'green' },
        token: w.admin.token,
        response: { label: { label_id: 1, name: 'VIP', color: 'green', chats: 0 } },
      },
    ],
    refusals: [
      refusal(w, 'A colour outside the palette', { name: 'Refund', color: '#ff0000' }, '100001', {
        msg: 'Parameter error: color',
        data: {
          fields: [
            {
              path: 'color',
              message:
                'Invalid option: expected one of "gray"|"red"|"orange"|"yellow"|"green"|"teal"|"blue"|"violet"|"pink"',
            },
          ],
        },
      }),
      seatToken(w, { name: 'VIP', color: 'green' }),
    ],
  }),
  '/v1/admin/labels/update': (w) => ({
    success: [
      {
        summary: 'Recolour a label',
        request: { label_id: 1, color: 'blue' },
        token: w.admin.token,
        response: { label: { label_id: 1, name: 'VIP', color: 'blue', chats: 0 } },
      },
    ],
    refusals: [
      refusal(w, 'No such label', { label_id: 999_999, name: 'Gold' }, '400001'),
      seatToken(w),
    ],
  }),
  '/v1/admin/labels/delete': (w) => ({
    success: [
      {
        summary: 'Delete a label',
        request: { label_id: 1 },
        token: w.admin.token,
        response: { label_id: 1 },
      },
    ],
    refusals: [refusal(w, 'No such label', { label_id: 999_999 }, '400001'), seatToken(w)],
  }),
};

/** A day of one seat in Asia/Kolkata: 24 hours from 18:30 UTC the day before. */
function statsSeries(w: ExampleWorld): StatsSeries {
  const start = Date.UTC(2026, 2, 7, 18, 30);
  return {
    at: w.now,
    time_zone: 'Asia/Kolkata',
    from: '2026-03-08',
    to: '2026-03-08',
    bucket: 'hour',
    seat_id: w.admin.seatId,
    buckets: Array.from({ length: 24 }, (_, h) => ({
      start: start + h * 60 * MINUTE,
      end: start + (h + 1) * 60 * MINUTE,
      messages_in: h === 10 ? 3 : 0,
      messages_out: h === 10 ? 2 : 0,
      waiting: 0,
      first_responses: h === 10 ? 2 : 0,
      first_response_median_ms: h === 10 ? 4 * MINUTE : null,
      first_response_p90_ms: h === 10 ? 6 * MINUTE : null,
      engine_characters: (h === 10 ? { libretranslate: 120 } : {}) as Record<string, number>,
      memory_characters: h === 10 ? 40 : 0,
      glossary_hits: h === 10 ? 3 : 0,
      back_translations: h === 10 ? 3 : 0,
      flagged_round_trips: h === 10 ? 1 : 0,
      assignments: h === 10 ? 2 : 0,
      handovers: h === 10 ? 1 : 0,
      back_to_queue: 0,
      queue_wait_avg_ms: h === 10 ? 3 * MINUTE : null,
      queue_wait_p90_ms: h === 10 ? 5 * MINUTE : null,
    })),
  };
}
