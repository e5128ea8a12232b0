import type { CallInput, CallPath, CallResponse } from '../calls/index.js';
import { ERROR_MESSAGES, OTHER_MESSAGES, type ErrorCode } from '../codes.js';
import type { ChatMessage, Group, SessionItem, UserInfo } from '../entities.js';
import type { EngineOffer } from '../calls/translation.js';
import { exampleImage, type ExampleWorld } from './example-world.js';

/** A valid request and its success answer's `data`. */
export interface SuccessExample<Req = unknown, Res = unknown> {
  summary: string;
  request: Req;
  /** The token sent in `Authorization` (calls that need one); default: the world's `token`. */
  token?: string;
  response: Res;
  /**
   * False: shown in the document only; the example world (accounts on the platform channel)
   * cannot replay it, and a test of its own sends it (a WhatsApp template).
   */
  replayed?: false;
}

/** A refused request and the whole answer it gets (the server's `msg`, and `data`). */
export interface RefusalExample {
  summary: string;
  request: unknown;
  /** The token sent; null: none. Default: the world's `token` (calls that need one). */
  token?: string | null;
  code: ErrorCode;
  msg: string;
  data: unknown;
}

export interface CallExamples<Req = unknown, Res = unknown> {
  success: SuccessExample<Req, Res>[];
  refusals: RefusalExample[];
}

type ExamplesOf<P extends CallPath> = (
  w: ExampleWorld,
) => CallExamples<CallInput<P>, CallResponse<P>>;

const refusal = (
  summary: string,
  request: unknown,
  code: ErrorCode,
  data: unknown = null,
  msg: string = ERROR_MESSAGES[code],
): RefusalExample => ({ summary, request, code, msg, data });

/** 100001 naming its first bad field, with each bad field and why. */
const badField = (summary: string, request: unknown, fields: [string, string][]) =>
  refusal(
    summary,
    request,
    '100001',
    { fields: fields.map(([path, message]) => ({ path, message })) },
    `${ERROR_MESSAGES['100001']}: ${fields[0]![0]}`,
  );

const MINUTE = 60_000;

function userInfo(w: ExampleWorld, token = w.token): UserInfo {
  return {
    token,
    seat_id: w.seatId,
    account: w.account,
    nickname: w.nickname,
    phone_accounts: [{ send_phone: w.phone, label: w.phoneLabel, channel: 'platform' }],
    expires_at: w.expiresAt,
  };
}

function session(w: ExampleWorld, overrides: Partial<SessionItem> = {}): SessionItem {
  return {
    session_id: w.sessions.main,
    send_phone: w.phone,
    receiver_phone: w.customer,
    un_read_count: 0,
    add_time: w.now - 30 * MINUTE,
    latest_time: w.now - 5 * MINUTE,
    group_id: w.groups.ungrouped,
    is_top: false,
    remark: '',
    blocked: false,
    customer_name: null,
    avatar_url: null,
    user_time_type: 1,
    customer_language: 'ES',
    last_message: {
      type: 'text',
      direction: 'out',
      preview: 'Hello! Your order ships tomorrow.',
      created_at: w.now - 5 * MINUTE,
    },
    // A platform chat: its channel has no reply window.
    can_reply: true,
    reply_until: null,
    ...overrides,
  };
}

function message(w: ExampleWorld, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    msg_id: w.messages.outbound,
    session_id: w.sessions.main,
    client_msg_id: w.messages.outboundClientId,
    direction: 'out',
    type: 'text',
    content: 'Hello! Your order ships tomorrow.',
    original_content: null,
    media: null,
    status: 'sent',
    fail_reason: null,
    created_at: w.now - 5 * MINUTE,
    deleted: false,
    reply_to: null,
    quote: null,
    reaction: null,
    ...overrides,
  };
}

function inboundMessage(w: ExampleWorld): ChatMessage {
  return message(w, {
    msg_id: w.messages.inbound,
    client_msg_id: null,
    direction: 'in',
    content: w.messages.inboundText,
    status: 'delivered',
    created_at: w.now - 30 * MINUTE,
  });
}

function groups(w: ExampleWorld): Group[] {
  return [
    {
      group_id: w.groups.ungrouped,
      group_name: 'Ungrouped',
      group_type: 'ungrouped',
      un_read: 2,
      disabled: false,
    },
    {
      group_id: w.groups.blocked,
      group_name: 'Blocked',
      group_type: 'blocked',
      un_read: 0,
      disabled: true,
    },
    {
      group_id: w.groups.tgLinkPushed,
      group_name: 'TG link pushed',
      group_type: 'tg_link_pushed',
      un_read: 0,
      disabled: false,
    },
    {
      group_id: w.groups.custom,
      group_name: w.groups.customName,
      group_type: 'custom',
      un_read: 0,
      disabled: false,
    },
  ];
}

function batch(w: ExampleWorld, batchId: string) {
  return {
    batch_id: batchId,
    total: 1,
    sent: 0,
    failed: 0,
    done: false,
    created_at: w.now,
    results: [
      {
        session_id: w.sessions.main,
        receiver_phone: w.customer,
        status: 'pending' as const,
        msg_id: null,
        code: null,
      },
    ],
  };
}

/** What Apertium APY offers with the English-Spanish pair installed. */
const APERTIUM_OFFER = {
  engine: 'apertium',
  auto_detect: false,
  sources: ['EN', 'ES'],
  targets: ['EN', 'ES'],
  pairs: [
    { source: 'EN', target: 'ES' },
    { source: 'ES', target: 'EN' },
  ],
} satisfies EngineOffer;

/** A call sent without a token. */
const noToken = (): RefusalExample => ({
  summary: 'No token',
  request: {},
  token: null,
  code: '400002',
  msg: OTHER_MESSAGES.missingAuth,
  data: null,
});

const noChat = (w: ExampleWorld) =>
  refusal(
    "Another seat's chat (or one that does not exist)",
    { session_id: w.sessions.otherSeat },
    '400001',
  );

/**
 * Examples of every seat call: a valid request with its success answer, and refusals with
 * the whole answer they get. Typed by the call registry, so a new call needs its examples.
 */
export const CALL_EXAMPLES: { [P in CallPath]: ExamplesOf<P> } = {
  '/v1/seat/team/queue': () => ({
    success: [
      {
        summary: 'A seat that is a member of no team account',
        request: {},
        response: { teams: [] },
      },
    ],
    refusals: [
      badField('page_size 0', { page_size: 0 }, [
        ['page_size', 'Too small: expected number to be >=1'],
      ]),
    ],
  }),
  '/v1/seat/team/take': (w) => ({
    success: [
      {
        summary: 'Take the chat waiting longest (a team account)',
        request: { session_id: w.sessions.main },
        response: session(w),
        replayed: false,
      },
    ],
    refusals: [noChat(w)],
  }),
  '/v1/seat/team/handOver': (w) => ({
    success: [
      {
        summary: 'Hand a chat to another member, with a note',
        request: { session_id: w.sessions.main, to_seat_id: 7, note: 'Wants a refund; order 4411' },
        response: {
          session_id: w.sessions.main,
          holder: { seat_id: 7, nickname: 'Bo', online: true, frozen: false },
        },
        replayed: false,
      },
    ],
    refusals: [{ ...noChat(w), request: { session_id: w.sessions.otherSeat, to_seat_id: 7 } }],
  }),
  '/v1/seat/team/backToQueue': (w) => ({
    success: [
      {
        summary: 'Put a chat back in the queue',
        request: { session_id: w.sessions.main, note: 'Going off shift' },
        response: { session_id: w.sessions.main },
        replayed: false,
      },
    ],
    refusals: [noChat(w)],
  }),
  '/v1/seat/team/members': (w) => ({
    success: [
      {
        summary: 'Who holds a team chat, and who could take it over',
        request: { session_id: w.sessions.main },
        response: {
          account_id: 1,
          holder: { seat_id: w.seatId, nickname: w.nickname, online: true, frozen: false },
          members: [
            { seat_id: w.seatId, nickname: w.nickname, online: true, frozen: false },
            { seat_id: 7, nickname: 'Bo', online: false, frozen: false },
          ],
        },
        replayed: false,
      },
    ],
    refusals: [noChat(w)],
  }),
  '/v1/seat/team/addNote': (w) => ({
    success: [
      {
        summary: 'A private note in a team chat',
        request: { session_id: w.sessions.main, content: 'VIP: answer within the hour' },
        response: {
          note_id: 1,
          session_id: w.sessions.main,
          kind: 'note',
          author: w.nickname,
          author_seat_id: w.seatId,
          content: 'VIP: answer within the hour',
          created_at: w.now,
        },
        replayed: false,
      },
    ],
    refusals: [{ ...noChat(w), request: { session_id: w.sessions.otherSeat, content: 'x' } }],
  }),
  '/v1/seat/team/notes': (w) => ({
    success: [
      {
        summary: "A team chat's notes",
        request: { session_id: w.sessions.main },
        response: { notes: [] },
        replayed: false,
      },
    ],
    refusals: [noChat(w)],
  }),
  '/v1/seat/team/presence': (w) => ({
    success: [
      {
        summary: 'The console shows a team chat: its other members see "viewing"',
        request: { session_id: w.sessions.main, state: 'viewing' },
        response: { session_id: w.sessions.main },
        replayed: false,
      },
    ],
    refusals: [{ ...noChat(w), request: { session_id: w.sessions.otherSeat, state: 'viewing' } }],
  }),
  '/v1/seat/team/chatRecord': (w) => ({
    success: [
      {
        summary: 'A queued chat read before taking it',
        request: { session_id: w.sessions.main },
        response: { list: [], has_more: false },
        replayed: false,
      },
    ],
    refusals: [noChat(w)],
  }),
  '/v1/seat/team/searchNotes': () => ({
    success: [
      {
        summary: 'No team account, no notes',
        request: { keyword: 'refund' },
        response: { notes: [] },
      },
    ],
    refusals: [
      badField('keyword empty', { keyword: '' }, [
        ['keyword', 'Too small: expected string to have >=1 characters'],
      ]),
    ],
  }),
  '/v1/seat/label/list': () => ({
    success: [
      {
        summary: "The workspace's labels",
        request: {},
        response: { labels: [{ label_id: 1, name: 'VIP', color: 'green' }] },
      },
    ],
    refusals: [noToken()],
  }),
  '/v1/seat/label/set': (w) => ({
    success: [
      {
        summary: "Clear a chat's labels",
        request: { session_id: w.sessions.main, label_ids: [] },
        response: { session_id: w.sessions.main, labels: [] },
      },
    ],
    refusals: [
      refusal(
        "Another seat's chat (or one that does not exist)",
        { session_id: w.sessions.otherSeat, label_ids: [] },
        '400001',
      ),
      refusal(
        'A label that does not exist',
        { session_id: w.sessions.main, label_ids: [999_999] },
        '400001',
      ),
    ],
  }),
  '/v1/seat/chat/login': (w) => ({
    success: [
      {
        summary: 'Log in',
        request: { account: w.account, password: w.password },
        response: userInfo(w),
      },
    ],
    refusals: [
      refusal('Wrong password', { account: w.account, password: 'not-the-password' }, '100005'),
    ],
  }),
  '/v1/seat/chat/token_login': (w) => ({
    success: [{ summary: 'Exchange a token', request: { token: w.token }, response: userInfo(w) }],
    refusals: [
      refusal('A token that is not (or no longer) valid', { token: 'not-a-token' }, '400002'),
    ],
  }),
  '/v1/seat/chat/getGroupList': (w) => ({
    success: [
      {
        summary: 'All chats',
        request: { reply: 0 },
        response: {
          group_list: groups(w),
          seat_one_seat_msg_count: 2,
          seat_two_seat_msg_count: 0,
          un_read_count: 2,
        },
      },
    ],
    refusals: [noToken()],
  }),
  '/v1/seat/chat/getGroupInfo': (w) => ({
    success: [
      {
        summary: 'The chats of Ungrouped active in the last 24 hours',
        request: { group_id: w.groups.ungrouped, user_time_type: 1, page_size: 20 },
        response: { account_list: [session(w, { un_read_count: 2 })], total: 1, next_cursor: null },
      },
    ],
    refusals: [
      badField('A page size over the limit', { group_id: w.groups.ungrouped, page_size: 500 }, [
        ['page_size', 'Too big: expected number to be <=200'],
      ]),
    ],
  }),
  '/v1/seat/chat/getChatRecord': (w) => ({
    success: [
      {
        summary: 'The newest page of a chat',
        request: { send_phone: w.phone, receiver_phone: w.customer, page_size: 50 },
        response: { list: [inboundMessage(w), message(w)], has_more: false, has_newer: false },
      },
    ],
    refusals: [
      refusal(
        'A malformed phone number',
        { send_phone: w.phone, receiver_phone: 'call me' },
        '100001',
        { fields: [{ path: 'receiver_phone', message: 'invalid phone number format' }] },
        `${ERROR_MESSAGES['100001']}: receiver_phone`,
      ),
    ],
  }),
  '/v1/seat/chat/doGroup': (w) => ({
    success: [
      {
        summary: 'Create a group',
        request: { type: 'add', group_name: 'VIP customers' },
        response: {
          group: {
            group_id: w.groups.toDelete + 1,
            group_name: 'VIP customers',
            group_type: 'custom',
            un_read: 0,
            disabled: false,
          },
          moved_sessions: 0,
        },
      },
      {
        summary: 'Rename a group',
        request: { type: 'edit', group_id: w.groups.custom, group_name: 'Wholesale (EU)' },
        response: {
          group: {
            group_id: w.groups.custom,
            group_name: 'Wholesale (EU)',
            group_type: 'custom',
            un_read: 0,
            disabled: false,
          },
          moved_sessions: 0,
        },
      },
      {
        summary: 'Delete a group: its chats move to Ungrouped',
        request: { type: 'del', group_id: w.groups.toDelete },
        response: {
          group: {
            group_id: w.groups.ungrouped,
            group_name: 'Ungrouped',
            group_type: 'ungrouped',
            un_read: 2,
            disabled: false,
          },
          moved_sessions: 0,
        },
      },
    ],
    refusals: [
      refusal('A name already in use', { type: 'add', group_name: w.groups.customName }, '500002'),
    ],
  }),
  '/v1/seat/chat/delSession': (w) => ({
    success: [
      {
        summary: 'Remove a chat',
        request: { session_id: w.sessions.toDelete },
        response: { session_id: w.sessions.toDelete },
      },
    ],
    refusals: [noChat(w)],
  }),
  '/v1/seat/chat/addSession': (w) => ({
    success: [
      {
        summary: 'Start a chat with a greeting',
        request: {
          send_phone: w.phone,
          receiver_phone: w.newCustomer,
          greeting: 'Hello from Parley!',
          client_msg_id: 'c-1a2b3c4d5e',
        },
        response: {
          session: session(w, {
            session_id: w.sessions.otherSeat + 1,
            receiver_phone: w.newCustomer,
            add_time: w.now,
            latest_time: w.now,
            customer_language: null,
            last_message: {
              type: 'text',
              direction: 'out',
              preview: 'Hello from Parley!',
              created_at: w.now,
            },
          }),
          message: message(w, {
            msg_id: w.messages.outbound + 1,
            session_id: w.sessions.otherSeat + 1,
            client_msg_id: 'c-1a2b3c4d5e',
            content: 'Hello from Parley!',
            status: 'pending',
            created_at: w.now,
          }),
        },
      },
    ],
    refusals: [
      refusal(
        'A chat with this customer exists',
        {
          send_phone: w.phone,
          receiver_phone: w.customer,
          greeting: 'Hello again',
          client_msg_id: 'c-9z8y7x6w5v',
        },
        '500006',
      ),
    ],
  }),
  '/v1/seat/chat/moveSessionGroup': (w) => ({
    success: [
      {
        summary: 'Move a chat to a custom group',
        request: { session_id: w.sessions.main, group_id: w.groups.custom },
        response: session(w, { group_id: w.groups.custom }),
      },
    ],
    refusals: [
      refusal(
        'A group that is not the seat’s',
        { session_id: w.sessions.main, group_id: 999_999 },
        '400001',
      ),
    ],
  }),
  '/v1/seat/chat/sessionDoTop': (w) => ({
    success: [
      {
        summary: 'Pin a chat',
        request: { session_id: w.sessions.main, is_top: true },
        response: session(w, { is_top: true }),
      },
    ],
    refusals: [
      badField('is_top missing', { session_id: w.sessions.main }, [
        ['is_top', 'Invalid input: expected boolean, received undefined'],
      ]),
    ],
  }),
  '/v1/seat/chat/mute': (w) => ({
    success: [
      {
        summary: 'Mute a chat',
        request: { session_id: w.sessions.main, muted: true },
        response: { session_id: w.sessions.main, muted: true },
      },
      {
        summary: 'Unmute it',
        request: { session_id: w.sessions.main, muted: false },
        response: { session_id: w.sessions.main, muted: false },
      },
    ],
    refusals: [
      refusal(
        "Another seat's chat (or one that does not exist)",
        { session_id: w.sessions.otherSeat, muted: true },
        '400001',
      ),
      badField('muted missing', { session_id: w.sessions.main }, [
        ['muted', 'Invalid input: expected boolean, received undefined'],
      ]),
    ],
  }),
  '/v1/seat/chat/mutedChats': (w) => ({
    success: [
      {
        summary: 'The muted chats',
        request: {},
        response: { session_ids: [w.sessions.main] },
      },
    ],
    refusals: [noToken()],
  }),
  '/v1/seat/chat/markUnread': (w) => ({
    success: [
      {
        summary: 'Mark a chat unread',
        request: { session_id: w.sessions.main },
        response: session(w, { un_read_count: 1 }),
      },
    ],
    refusals: [
      noChat(w),
      badField('session_id missing', {}, [
        ['session_id', 'Invalid input: expected number, received undefined'],
      ]),
    ],
  }),
  '/v1/seat/chat/block': (w) => ({
    success: [
      {
        summary: 'Block a customer',
        request: { session_id: w.sessions.toBlock },
        response: session(w, {
          session_id: w.sessions.toBlock,
          receiver_phone: w.customers.toBlock,
          group_id: w.groups.blocked,
          blocked: true,
          last_message: null,
        }),
      },
    ],
    refusals: [noChat(w)],
  }),
  '/v1/seat/chat/unblock': (w) => ({
    success: [
      {
        summary: 'Unblock a customer',
        request: { session_id: w.sessions.blocked },
        response: session(w, {
          session_id: w.sessions.blocked,
          receiver_phone: w.customers.blocked,
          last_message: null,
        }),
      },
    ],
    refusals: [noChat(w)],
  }),
  '/v1/seat/chat/message': (w) => ({
    success: [
      {
        summary: 'Send a text',
        request: {
          send_phone: w.phone,
          receiver_phone: w.customer,
          content: 'Your order ships tomorrow.',
          client_msg_id: 'c-5e6f7a8b9c',
        },
        response: message(w, {
          msg_id: w.messages.outbound + 2,
          client_msg_id: 'c-5e6f7a8b9c',
          content: 'Your order ships tomorrow.',
          status: 'pending',
          created_at: w.now,
        }),
      },
      {
        summary: 'Send an uploaded image with a caption',
        request: {
          send_phone: w.phone,
          receiver_phone: w.customer,
          type: 'image',
          content: 'The invoice',
          media_id: w.media.id,
          client_msg_id: 'c-6f7a8b9c0d',
        },
        response: message(w, {
          msg_id: w.messages.outbound + 3,
          client_msg_id: 'c-6f7a8b9c0d',
          type: 'image',
          content: 'The invoice',
          media: exampleImage(w),
          status: 'pending',
          created_at: w.now,
        }),
      },
      {
        summary: 'Reply to a customer’s message (quoted above the new one)',
        request: {
          send_phone: w.phone,
          receiver_phone: w.customer,
          content: 'It ships tomorrow.',
          client_msg_id: 'c-7a8b9c0d1e',
          reply_to: w.messages.inbound,
        },
        response: message(w, {
          msg_id: w.messages.outbound + 4,
          client_msg_id: 'c-7a8b9c0d1e',
          content: 'It ships tomorrow.',
          status: 'pending',
          created_at: w.now,
          reply_to: w.messages.inbound,
          quote: {
            msg_id: w.messages.inbound,
            direction: 'in',
            type: 'text',
            preview: w.messages.inboundText,
            deleted: false,
          },
        }),
      },
    ],
    refusals: [
      badField(
        'An image without its media',
        {
          send_phone: w.phone,
          receiver_phone: w.customer,
          type: 'image',
          client_msg_id: 'c-7a8b9c0d1e',
        },
        [['media_id', 'required']],
      ),
    ],
  }),
  '/v1/seat/chat/batch_message': (w) => ({
    success: [
      {
        summary: 'One text to chosen chats',
        request: {
          batch_id: 'b-3e92a1d5b0',
          session_ids: [w.sessions.main],
          content: 'We are closed on Monday.',
        },
        response: batch(w, 'b-3e92a1d5b0'),
      },
    ],
    refusals: [
      badField('No target', { batch_id: 'b-4fa3b2e6c1', content: 'Hello all' }, [
        ['session_ids', 'required'],
      ]),
    ],
  }),
  '/v1/seat/chat/oneClickRead': (w) => ({
    success: [
      {
        summary: 'Mark every chat of a group read',
        request: { group_id: w.groups.ungrouped },
        response: { cleared: 2 },
      },
    ],
    refusals: [refusal('A group that is not the seat’s', { group_id: 999_999 }, '400001')],
  }),
  '/v1/seat/chat/del_message': (w) => ({
    success: [
      {
        summary: 'Hide a message for me',
        request: { msg_id: w.messages.inbound, scope: 'me' },
        response: { msg_id: w.messages.inbound, scope: 'me' },
      },
      {
        summary: 'Retract my message for all',
        request: { msg_id: w.messages.outbound, scope: 'all' },
        response: { msg_id: w.messages.outbound, scope: 'all' },
      },
    ],
    refusals: [
      badField('An unknown scope', { msg_id: w.messages.inbound, scope: 'everyone' }, [
        ['scope', 'Invalid option: expected one of "me"|"all"'],
      ]),
    ],
  }),
  '/v1/seat/chat/quickReplyList': (w) => ({
    success: [
      {
        summary: 'The seat’s quick replies',
        request: {},
        response: {
          list: [
            {
              id: w.quickReplies.text,
              kind: 'text',
              name: 'Greeting',
              content: 'Hello! How can I help you today?',
              media_id: null,
              media: null,
              updated_at: w.now - 60 * MINUTE,
            },
          ],
        },
      },
    ],
    refusals: [
      {
        summary: 'A token that is not (or no longer) valid',
        request: {},
        token: 'not-a-token',
        code: '400002',
        msg: ERROR_MESSAGES['400002'],
        data: null,
      },
    ],
  }),
  '/v1/seat/chat/quickReplyDoType': (w) => ({
    success: [
      {
        summary: 'Add a text quick reply',
        request: {
          type: 'add',
          kind: 'text',
          name: 'Opening hours',
          content: 'We are open 9:00–18:00 (UTC).',
        },
        response: {
          item: {
            id: w.quickReplies.toDelete + 1,
            kind: 'text',
            name: 'Opening hours',
            content: 'We are open 9:00–18:00 (UTC).',
            media_id: null,
            media: null,
            updated_at: w.now,
          },
          id: w.quickReplies.toDelete + 1,
        },
      },
      {
        summary: 'Add an image material (uploaded first)',
        request: {
          type: 'add',
          kind: 'image',
          name: 'Price list',
          content: 'Our prices',
          media_id: w.media.id,
        },
        response: {
          item: {
            id: w.quickReplies.toDelete + 2,
            kind: 'image',
            name: 'Price list',
            content: 'Our prices',
            media_id: w.media.id,
            media: exampleImage(w),
            updated_at: w.now,
          },
          id: w.quickReplies.toDelete + 2,
        },
      },
      {
        summary: 'Delete a quick reply',
        request: { type: 'del', id: w.quickReplies.toDelete },
        response: { item: null, id: w.quickReplies.toDelete },
      },
    ],
    refusals: [
      badField(
        'An image material without its image',
        { type: 'add', kind: 'image', name: 'Catalogue', content: 'Our catalogue' },
        [['media_id', 'required']],
      ),
    ],
  }),
  '/v1/seat/chat/set_remark': (w) => ({
    success: [
      {
        summary: 'Set a remark',
        request: { session_id: w.sessions.main, remark: 'VIP since 2023' },
        response: { session_id: w.sessions.main, remark: 'VIP since 2023' },
      },
    ],
    refusals: [
      badField(
        'A remark over 100 characters',
        { session_id: w.sessions.main, remark: 'x'.repeat(101) },
        [['remark', 'Too big: expected string to have <=100 characters']],
      ),
    ],
  }),
  '/v1/seat/chat/get_remark': (w) => ({
    success: [
      {
        summary: 'Read a remark',
        request: { session_id: w.sessions.main },
        response: { session_id: w.sessions.main, remark: 'VIP since 2023' },
      },
    ],
    refusals: [noChat(w)],
  }),
  '/v1/seat/chat/translate/text_v2': (w) => ({
    success: [
      {
        summary: "Translate a customer's message into English",
        request: {
          session_id: w.sessions.main,
          texts: [w.messages.inboundText],
          source_lang: 'ES',
          target_lang: 'EN',
          direction: 'incoming',
        },
        response: {
          engine: 'apertium',
          translations: [
            {
              text: 'Hello, I want to know the state of my order',
              detected_source_language: null,
              from_memory: false,
              engine: 'apertium',
            },
          ],
          customer_language: 'ES',
        },
      },
    ],
    refusals: [
      badField(
        'The same language on both sides',
        { texts: ['Hello'], source_lang: 'EN', target_lang: 'EN-GB' },
        [['target_lang', 'same language as source_lang']],
      ),
    ],
  }),
  '/v1/seat/tg/userInfo': (w) => ({
    success: [
      {
        summary: 'A chat of a platform account has no Telegram profile',
        request: { session_id: w.sessions.main },
        response: null,
      },
    ],
    refusals: [noChat(w)],
  }),
  '/v1/seat/wa/templates': (w) => ({
    success: [
      {
        summary: 'An account on the platform channel has no WhatsApp templates',
        request: { send_phone: w.phone },
        response: null,
      },
    ],
    refusals: [refusal('An account of another seat', { send_phone: '+15550009999' }, '400003')],
  }),
  '/v1/seat/wa/sendTemplate': (w) => ({
    success: [
      {
        summary: 'A template past the 24-hour window, its placeholders filled',
        // The example world's accounts are on the platform channel: apps/server's
        // test/whatsapp-templates.test.ts sends templates against a local Graph API.
        replayed: false,
        request: {
          session_id: w.sessions.main,
          client_msg_id: 'c-tpl-1a2b3c',
          template: {
            name: 'order_update',
            language: 'en_US',
            header: ['A-1027'],
            body: ['Ana', 'A-1027'],
            buttons: [{ index: 0, text: 'A-1027' }],
          },
        },
        response: message(w, {
          msg_id: w.messages.outbound + 10,
          client_msg_id: 'c-tpl-1a2b3c',
          content:
            'Order A-1027\n\nHello Ana, your order A-1027 is ready.\n\n[Track: https://shop.example/t/A-1027]',
          created_at: w.now,
        }),
      },
    ],
    refusals: [
      refusal(
        'A chat of an account on another channel',
        {
          session_id: w.sessions.main,
          client_msg_id: 'c-tpl-0001',
          template: { name: 'order_update', language: 'en_US', body: ['Ana'] },
        },
        '100001',
        { fields: [{ path: 'session_id', message: 'not_whatsapp' }], reason: 'not_whatsapp' },
        `${ERROR_MESSAGES['100001']}: session_id`,
      ),
      refusal(
        "Another seat's chat (or one that does not exist)",
        {
          session_id: w.sessions.otherSeat,
          client_msg_id: 'c-tpl-0002',
          template: { name: 'order_update', language: 'en_US' },
        },
        '400001',
      ),
    ],
  }),
  '/v1/seat/chat/batch_status': (w) => ({
    success: [
      {
        summary: 'Progress of a batch',
        request: { batch_id: w.batchId },
        response: batch(w, w.batchId),
      },
    ],
    refusals: [refusal('A batch this seat did not send', { batch_id: 'b-0000000000' }, '400001')],
  }),
  '/v1/seat/chat/searchMessage': (w) => ({
    success: [
      {
        summary: 'Messages with a word',
        request: { keyword: 'pedido', page_size: 30 },
        response: {
          list: [{ message: inboundMessage(w), session: session(w) }],
          next_cursor: null,
        },
      },
    ],
    refusals: [
      badField('A word under 6 characters', { keyword: 'pedi' }, [['keyword', 'too short']]),
    ],
  }),
  '/v1/seat/chat/addressBook': (w) => ({
    success: [
      {
        summary: 'Customers by number',
        request: { page_size: 50 },
        response: {
          list: [{ ...session(w), group_name: 'Ungrouped', group_type: 'ungrouped' }],
          total: 1,
          next_cursor: null,
        },
      },
    ],
    refusals: [
      badField('A cursor too long to be one', { cursor: 'x'.repeat(201) }, [
        ['cursor', 'Too big: expected string to have <=200 characters'],
      ]),
    ],
  }),
  '/v1/seat/chat/translate/languages': () => ({
    success: [
      {
        summary: 'What the configured engines translate',
        request: {},
        response: { ...APERTIUM_OFFER, engines: ['apertium'], offers: [APERTIUM_OFFER] },
      },
    ],
    refusals: [noToken()],
  }),
  '/v1/seat/chat/logout': (w) => ({
    success: [
      {
        summary: 'End this login',
        request: { all_devices: false },
        token: w.spareToken,
        response: { revoked: 1 },
      },
    ],
    refusals: [
      badField('all_devices not a boolean', { all_devices: 'yes' }, [
        ['all_devices', 'Invalid input: expected boolean, received string'],
      ]),
    ],
  }),
  '/v1/seat/chat/translate/round_trip': (w) => ({
    success: [
      {
        summary: 'A reply in Spanish, and what it says in English',
        request: {
          session_id: w.sessions.main,
          text: 'The house is big',
          source_lang: 'EN',
          target_lang: 'ES',
        },
        response: {
          translation: { text: 'La casa es grande', engine: 'apertium', from_memory: false },
          back_translation: { text: 'The house is big', engine: 'apertium', from_memory: false },
          back_failure: null,
          flags: [],
        },
      },
    ],
    refusals: [
      refusal(
        "Another seat's chat (or one that does not exist)",
        { session_id: w.sessions.otherSeat, text: 'Hello', source_lang: 'EN', target_lang: 'ES' },
        '400001',
      ),
      badField(
        'The same language on both sides',
        { session_id: w.sessions.main, text: 'Hello', source_lang: 'EN', target_lang: 'EN-GB' },
        [['target_lang', 'same language as source_lang']],
      ),
    ],
  }),
  '/v1/seat/chat/translate/sent_round_trip': (w) => ({
    success: [
      {
        // The first message of the example of /v1/seat/chat/addSession (sent untranslated);
        // not replayed: the world's replies are retracted or moved by other examples before it
        // (translation-round-trip.test.ts checks this answer).
        summary: 'A reply sent without a round trip has no back-translation',
        replayed: false,
        request: { session_id: w.sessions.otherSeat + 1, msg_id: w.messages.outbound + 1 },
        response: {
          msg_id: w.messages.outbound + 1,
          translation_engine: null,
          back_translation: null,
          engine: null,
          flags: [],
        },
      },
    ],
    refusals: [
      refusal(
        "Another seat's chat (or one that does not exist)",
        { session_id: w.sessions.otherSeat, msg_id: w.messages.outbound },
        '400001',
      ),
    ],
  }),
  '/v1/seat/chat/set_customer_language': (w) => ({
    success: [
      {
        summary: "Remember the customer's language",
        request: { session_id: w.sessions.main, customer_language: 'ES' },
        response: { session_id: w.sessions.main, customer_language: 'ES' },
      },
    ],
    refusals: [
      refusal(
        "Another seat's chat",
        { session_id: w.sessions.otherSeat, customer_language: 'ES' },
        '400001',
      ),
    ],
  }),
  '/v1/seat/push/key': () => ({
    success: [
      {
        summary: "The server's VAPID public key",
        request: {},
        response: { public_key: RFC8291.asPublic },
      },
    ],
    refusals: [noToken()],
  }),
  '/v1/seat/push/subscribe': () => ({
    success: [
      {
        summary: "A browser's subscription at its push service (Chrome's FCM)",
        request: { endpoint: FCM_ENDPOINT, keys: RFC8291.keys, translate_to: 'EN-GB' },
        response: { subscribed: true },
        // The example world reaches no push service; test/web-push.test.ts subscribes.
        replayed: false,
      },
    ],
    refusals: [
      refusal(
        'An endpoint that is not https',
        { endpoint: 'http://push.example.com/send/1', keys: RFC8291.keys },
        '422002',
        { reason: 'not_https' },
      ),
      refusal(
        'An endpoint at a private address',
        { endpoint: 'https://10.0.0.7/send/1', keys: RFC8291.keys },
        '422002',
        { reason: 'private_address' },
      ),
      refusal(
        'A host that is not a known push service',
        { endpoint: 'https://push.example.com/send/1', keys: RFC8291.keys },
        '422002',
        { reason: 'host_not_allowed' },
      ),
    ],
  }),
  '/v1/seat/push/unsubscribe': () => ({
    success: [
      {
        summary: 'This device is no longer notified (0: it was not subscribed)',
        request: { endpoint: FCM_ENDPOINT },
        response: { removed: 0 },
      },
    ],
    refusals: [noToken()],
  }),
  '/v1/seat/push/test': () => ({
    success: [
      {
        summary: 'A test notification to this device',
        request: { endpoint: FCM_ENDPOINT },
        response: { sent: true },
        replayed: false,
      },
    ],
    refusals: [
      refusal('A device this seat has not subscribed', { endpoint: FCM_ENDPOINT }, '400001'),
    ],
  }),
};

/** The keys of RFC 8291's example (appendix A): a user agent's, and an application server's. */
const RFC8291 = {
  keys: {
    p256dh:
      'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
    auth: 'BTBZMqHH6r4Tts7J_aSIgg',
  },
  asPublic:
    'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
};
const FCM_ENDPOINT = 'https://fcm.googleapis.com/fcm/send/example-registration-id';
