import type { ChannelName, LabelColor, MessageFailReason } from '@parley/protocol';
import type { Generated, Insertable, Selectable } from 'kysely';

/** Times are epoch milliseconds; flags are 0/1 integers (portable between SQLite and PG). */
export interface SeatsTable {
  id: Generated<number>;
  account: string;
  nickname: string;
  password_hash: string;
  frozen: number;
  created_at: number;
  /** Last call or push heartbeat of the seat (migration 018). */
  last_seen_at: Generated<number | null>;
}

export interface TokensTable {
  id: Generated<number>;
  token_hash: string;
  seat_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface PhoneAccountsTable {
  id: Generated<number>;
  send_phone: string;
  label: string;
  channel: ChannelName;
  seat_id: number | null;
  created_at: number;
}

export interface SeatGroupsTable {
  id: Generated<number>;
  seat_id: number;
  name: string;
  type: 'custom' | 'ungrouped' | 'blocked' | 'tg_link_pushed';
  created_at: number;
}

/**
 * Kept by the database on every change of a chat (migration 016): a group's chats, those
 * waiting for a reply (last message from the customer), and their unread messages.
 */
export interface GroupCountsTable {
  group_id: number;
  seat_id: number;
  chats: number;
  waiting_chats: number;
  unread: number;
  waiting_unread: number;
}

/** The same counts per seat, hour of `latest_time` and group (migration 016). */
export interface SessionHoursTable {
  seat_id: number;
  hour: number;
  group_id: number;
  chats: number;
  waiting_chats: number;
  unread: number;
  waiting_unread: number;
}

export interface SessionsTable {
  id: Generated<number>;
  seat_id: number;
  send_phone: string;
  receiver_phone: string;
  group_id: number;
  /** Where an unblocked chat goes back to (null: Ungrouped). */
  prev_group_id: number | null;
  is_top: number;
  remark: string;
  un_read_count: number;
  add_time: number;
  latest_time: number;
  last_direction: 'in' | 'out' | null;
  last_preview: string | null;
  last_type: 'text' | 'image' | 'audio' | 'video' | 'file' | null;
  customer_language: string | null;
  blocked: number;
  /** The name the customer's channel gives them (migration 032; null: none given). */
  customer_name: Generated<string | null>;
  /** The channel's photo of the customer: a media of the chat's seat (migration 032). */
  customer_avatar: Generated<string | null>;
  /**
   * Until when free text is accepted (migration 046; modules/sessions/reply-window.ts): null,
   * the chat's channel has no reply window; 0, the customer has not written within one.
   */
  reply_until: Generated<number | null>;
}

export interface MessagesTable {
  id: Generated<number>;
  session_id: number;
  seat_id: number;
  client_msg_id: string | null;
  direction: 'in' | 'out';
  type: 'text' | 'image' | 'audio' | 'video' | 'file';
  content: string;
  /** The operator's words before translation (outgoing translation); null otherwise. */
  original_content: string | null;
  /** JSON of the media's stored fields (a `StoredMedia`); URLs are signed when presented. */
  media: string | null;
  /** The media of an image, audio, video or file message. */
  media_id: string | null;
  status: 'pending' | 'sent' | 'delivered' | 'read' | 'failed';
  created_at: number;
  deleted_for_me: number;
  deleted_for_all: number;
  /** The channel's id of the message (the platform's for incoming, the delivery's for outgoing). */
  external_id: Generated<string | null>;
  /** The message this one quotes (a message of the same chat); null for none. */
  reply_to_id: Generated<number | null>;
  /**
   * What the quote shows, kept as the message is written (JSON of a `StoredQuote`); null with
   * a `reply_to_id` once the quoted message is retracted ("deleted message").
   */
  reply_quote: Generated<string | null>;
  /** The customer's current reaction to the message (an emoji; null: none). Migration 037. */
  reaction: Generated<string | null>;
  /** Why a channel refused it for good, when the console has words for it (MessageFailReason). */
  fail_reason: Generated<MessageFailReason | null>;
}

/** The login throttle: attempts of one key (`account:<name>`, `ip:<address>`) in a window. */
export interface LoginAttemptsTable {
  key: string;
  window_start: number;
  attempts: number;
}

export interface QuickRepliesTable {
  id: Generated<number>;
  seat_id: number;
  kind: 'text' | 'image' | 'audio';
  name: string;
  content: string;
  media_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface BatchesTable {
  id: Generated<number>;
  seat_id: number;
  /** The client's id of the batch (unique per seat). */
  batch_id: string;
  type: 'text' | 'image' | 'audio' | 'video' | 'file';
  content: string;
  media_id: string | null;
  fingerprint: string;
  total: number;
  done: number;
  created_at: number;
}

export interface BatchItemsTable {
  id: Generated<number>;
  batch_row_id: number;
  seat_id: number;
  session_id: number;
  send_phone: string;
  receiver_phone: string;
  status: 'pending' | 'sent' | 'failed';
  msg_id: number | null;
  code: string | null;
  claim_until: Generated<number>;
  attempts: Generated<number>;
  updated_at: number;
}

export interface BatchPaceTable {
  seat_id: number;
  next_at: number;
}

/** Shared by every seat: one engine's translation of one text, from a source to a target. */
export interface TranslationMemoryTable {
  engine: string;
  /** The requested source: a language code, or 'auto'. */
  source_lang: string;
  target_lang: string;
  /** sha256 (hex) of the source text. */
  text_hash: string;
  translated: string;
  detected_lang: string | null;
  created_at: number;
}

export interface MediaTable {
  media_id: string;
  /** The seat that uploaded it (or received it from a customer). */
  seat_id: number;
  kind: 'image' | 'audio' | 'video' | 'file';
  sha256: string;
  /** Sniffed from the bytes, never taken from the client. */
  mime: string;
  size: number;
  file_name: string;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  thumb_sha256: string | null;
  created_at: number;
}

export interface PushSubscriptionsTable {
  endpoint_hash: string;
  seat_id: number;
  token_hash: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  translate_to: string | null;
  created_at: number;
}

/** A chat a seat muted: its customers' messages are not notified to the seat (migration 040). */
export interface ChatMutesTable {
  session_id: number;
  seat_id: number;
  created_at: number;
}

export interface ServerSettingsTable {
  key: string;
  value: string;
  created_at: number;
}

export interface TelegramProfilesTable {
  id: Generated<number>;
  /** The Telegram account (bot) of the platform that knows the customer. */
  send_phone: string;
  /** The customer's number in Parley (the chat's receiver_phone). */
  receiver_phone: string;
  tg_chat_id: string | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  photo_url: string | null;
  updated_at: number;
  /** The customer's Telegram language (IETF tag), from their messages. */
  language_code: Generated<string | null>;
  /** The profile photo, stored as a media of the seat (served through signed URLs). */
  photo_media_id: Generated<string | null>;
}

/** The Telegram bot bound to a phone account (migration 011). */
export interface TelegramBotsTable {
  send_phone: string;
  bot_id: string;
  bot_username: string;
  token: string;
  update_offset: Generated<number>;
  /** The server instance polling the bot, until `lease_until` (epoch ms). */
  lease_owner: string | null;
  lease_until: Generated<number>;
  created_at: number;
  /** The long-poll's state (migration 018). */
  last_poll_at: Generated<number | null>;
  last_error: Generated<string | null>;
  last_error_at: Generated<number | null>;
}

/** An external message taken once per channel and account (a repeat is stored once). */
export interface InboundMessagesTable {
  channel: string;
  send_phone: string;
  /** The channel's id: the platform's message id; Telegram's `<chat id>:<message id>`. */
  external_id: string;
  msg_id: number | null;
  created_at: number;
}

/** An operator's action waiting for (or done with) its channel. */
export interface OutboxTable {
  id: Generated<number>;
  seat_id: number;
  msg_id: number;
  kind: 'message' | 'delete';
  status: 'pending' | 'done' | 'failed';
  attempts: Generated<number>;
  next_at: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  /** The HTTP request that queued it (its delivery's log lines carry it). */
  request_id: Generated<string | null>;
}

/** The customer sandbox's side of a chat: what the customer sent and received. */
export interface SandboxEntriesTable {
  id: Generated<number>;
  send_phone: string;
  receiver_phone: string;
  direction: 'in' | 'out';
  msg_id: number | null;
  type: 'text' | 'image' | 'audio' | 'video' | 'file';
  content: string;
  media_id: string | null;
  deleted: Generated<number>;
  blocked: Generated<number>;
  seen: Generated<number>;
  created_at: number;
  /** Parley's id of the message this entry quotes (the operator's or the customer's). */
  reply_to_msg_id: Generated<number | null>;
}

/** Which browser plays a sandbox customer: the first key that used the number (its hash). */
export interface SandboxCustomersTable {
  send_phone: string;
  receiver_phone: string;
  /** SHA-256 (hex) of the browser's key. */
  key_hash: string;
  created_at: number;
}

/** The push channel's log (realtime/): numbered per seat. */
export interface EventsTable {
  seat_id: number;
  seq: number;
  type: string;
  /** JSON of the event's payload. */
  data: string;
  at: number;
  /** The HTTP request that caused it (the push's log line carries it). */
  request_id: Generated<string | null>;
}

export interface EventCountersTable {
  seat_id: number;
  last_seq: number;
}

export interface AdminsTable {
  id: Generated<number>;
  account: string;
  password_hash: string;
  created_at: number;
}

export interface AdminTokensTable {
  id: Generated<number>;
  token_hash: string;
  admin_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** Every administrator action (console or CLI), with the target before and after (JSON). */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor_type: 'admin' | 'cli';
  actor: string;
  action: string;
  target_type: 'admin' | 'seat' | 'account' | 'outbox' | 'glossary' | 'engine_route' | 'label';
  target_id: number;
  target: string;
  before: string | null;
  after: string | null;
}

/** Translation characters per engine and hour: sent to the engine, or answered by the memory. */
export interface TranslationUsageTable {
  hour: number;
  engine: string;
  characters: Generated<number>;
  memory_characters: Generated<number>;
}

/** Translation characters per quarter hour (`slot`, epoch ms), seat and engine (migration 031). */
export interface TranslationSlotsTable {
  slot: number;
  seat_id: number;
  engine: string;
  characters: Generated<number>;
  memory_characters: Generated<number>;
  /** Glossary terms kept or fixed in the texts sent (migration 044). */
  glossary_hits: Generated<number>;
}

/** Migration 044: the workspace's glossary. */
export interface GlossaryEntriesTable {
  id: Generated<number>;
  kind: 'keep' | 'pattern' | 'fixed';
  term: string;
  term_key: string;
  translation: string | null;
  /** Base languages of a fixed translation; '' for the other kinds. */
  source_lang: string;
  target_lang: string;
  created_at: number;
}

/** Migration 044: the engines of a language pair ('auto' source: detected), in order. */
export interface EngineRoutesTable {
  id: Generated<number>;
  source_lang: string;
  target_lang: string;
  engines: string;
  updated_at: number;
}

/** Migration 044: one row (id 1), the glossary's version and what DeepL holds of it. */
export interface GlossaryStateTable {
  id: number;
  version: number;
  deepl_glossary_id: string | null;
  deepl_state: string | null;
}

/** Migration 045: the round trip of a reply a seat had translated (see round-trip.ts). */
export interface RoundTripsTable {
  seat_id: number;
  original_hash: string;
  sent_hash: string;
  /** The engine that made the translation; null when the text held nothing to translate. */
  engine: string | null;
  back_translation: string | null;
  back_engine: string | null;
  /** JSON: RoundTripFlag[]. */
  flags: string;
  created_at: number;
}

/** Migration 045: round trips (and those flagged) per quarter hour and seat. */
export interface RoundTripSlotsTable {
  slot: number;
  seat_id: number;
  back_translations: Generated<number>;
  flagged: Generated<number>;
}

/**
 * Migration 034: a chat's turns (a message whose direction differs from the one before it), kept
 * by triggers on messages; an 'out' turn keeps when the wait it ends began.
 */
export interface ChatTurnsTable {
  seq: Generated<number>;
  message_id: number;
  session_id: number;
  seat_id: number;
  direction: 'in' | 'out';
  created_at: number;
  started_at: number | null;
}

/** Migration 025: raised by triggers on every change of a seat's chats or groups. */
export interface SeatListVersionsTable {
  seat_id: number;
  version: number;
}

/** One row (id 1): raised by the database whenever a login may have ended (migration 028). */
export interface TokenRevocationsTable {
  id: number;
  n: number;
}

export interface Database {
  admins: AdminsTable;
  admin_tokens: AdminTokensTable;
  audit_log: AuditLogTable;
  translation_usage: TranslationUsageTable;
  translation_slots: TranslationSlotsTable;
  glossary_entries: GlossaryEntriesTable;
  engine_routes: EngineRoutesTable;
  glossary_state: GlossaryStateTable;
  round_trips: RoundTripsTable;
  round_trip_slots: RoundTripSlotsTable;
  chat_turns: ChatTurnsTable;
  seats: SeatsTable;
  tokens: TokensTable;
  token_revocations: TokenRevocationsTable;
  phone_accounts: PhoneAccountsTable;
  seat_groups: SeatGroupsTable;
  sessions: SessionsTable;
  session_hours: SessionHoursTable;
  group_counts: GroupCountsTable;
  messages: MessagesTable;
  login_attempts: LoginAttemptsTable;
  quick_replies: QuickRepliesTable;
  batches: BatchesTable;
  batch_items: BatchItemsTable;
  batch_pace: BatchPaceTable;
  translation_memory: TranslationMemoryTable;
  media: MediaTable;
  server_settings: ServerSettingsTable;
  telegram_profiles: TelegramProfilesTable;
  telegram_bots: TelegramBotsTable;
  inbound_messages: InboundMessagesTable;
  outbox: OutboxTable;
  sandbox_entries: SandboxEntriesTable;
  sandbox_customers: SandboxCustomersTable;
  events: EventsTable;
  event_counters: EventCountersTable;
  seat_list_versions: SeatListVersionsTable;
  whatsapp_numbers: WhatsappNumbersTable;
  whatsapp_contacts: WhatsappContactsTable;
  whatsapp_messages: WhatsappMessagesTable;
  whatsapp_template_sends: WhatsappTemplateSendsTable;
  push_subscriptions: PushSubscriptionsTable;
  chat_mutes: ChatMutesTable;
  team_accounts: TeamAccountsTable;
  team_members: TeamMembersTable;
  team_queue: TeamQueueTable;
  team_notes: TeamNotesTable;
  team_replies: TeamRepliesTable;
  team_assignments: TeamAssignmentsTable;
  labels: LabelsTable;
  chat_labels: ChatLabelsTable;
}

/** A phone account made a team account (migration 041). */
export interface TeamAccountsTable {
  account_id: number;
  /** The seat holding the chats no member holds (frozen; never logs in). */
  queue_seat_id: number;
  routing: 'manual' | 'automatic';
  /** Automatic routing gives a member at most this many open chats of the account. */
  capacity: number;
  last_routed_seat_id: number | null;
  created_at: number;
}

export interface TeamMembersTable {
  account_id: number;
  seat_id: number;
  joined_at: number;
}

/** When a queued chat entered the queue (none: since it was opened). */
export interface TeamQueueTable {
  session_id: number;
  account_id: number;
  since: number;
}

export interface TeamNotesTable {
  id: Generated<number>;
  session_id: number;
  account_id: number;
  author_seat_id: number | null;
  /** The writer as shown: a seat's nickname, or the administrator's name. */
  author: string;
  kind: 'note' | 'handover';
  content: string;
  created_at: number;
}
/** The last member who replied to a customer of a team account, and when (migration 049). */
export interface TeamRepliesTable {
  send_phone: string;
  receiver_phone: string;
  seat_id: number;
  at: number;
}
/**
 * An assignment of a team account's chat, as the owner's charts count it (migration 048).
 * `seat_id`: the member who receives it, or who gives it back to the queue (kind 'queue').
 */
export interface TeamAssignmentsTable {
  id: Generated<number>;
  at: number;
  account_id: number;
  session_id: number;
  kind: 'take' | 'route' | 'handover' | 'queue';
  seat_id: number;
  from_seat_id: number | null;
  /** Time in the queue, ms, for a take or a routing. */
  queued_ms: number | null;
}
export type TeamAccountRow = Selectable<TeamAccountsTable>;
export type TeamNoteRow = Selectable<TeamNotesTable>;
export type TeamAssignmentRow = Selectable<TeamAssignmentsTable>;

/** A WhatsApp Business number bound to a phone account (migration 035). */
export interface WhatsappNumbersTable {
  send_phone: string;
  phone_number_id: string;
  waba_id: string;
  /** Secrets: never in an answer or a log line. */
  access_token: string;
  app_secret: string;
  verify_token: string;
  verified_name: string;
  display_phone_number: string;
  quality_rating: string;
  state: Generated<'ok' | 'token_invalid' | 'error'>;
  last_error: string | null;
  last_error_at: number | null;
  created_at: number;
  /** The earliest time the number's next message may go out (its throughput; migration 037). */
  pace_next_at: Generated<number>;
}

/** A customer of a WhatsApp number: profile name, last message (the 24-hour window). */
export interface WhatsappContactsTable {
  send_phone: string;
  wa_id: string;
  profile_name: string | null;
  last_inbound_at: number | null;
  updated_at: number;
}

/** WhatsApp's id (wamid) of a message both ways. */
export interface WhatsappMessagesTable {
  send_phone: string;
  wamid: string;
  msg_id: number;
  direction: 'in' | 'out';
  context_wamid: string | null;
  created_at: number;
}
/** An operator's message that goes out as a WhatsApp template (migration 036). */
export interface WhatsappTemplateSendsTable {
  msg_id: number;
  name: string;
  language: string;
  /** JSON of the Cloud API's template `components` (the placeholders' values). */
  components: string;
}
export type WhatsappNumberRow = Selectable<WhatsappNumbersTable>;
export type WhatsappTemplateSendRow = Selectable<WhatsappTemplateSendsTable>;

export type SeatRow = Selectable<SeatsTable>;
export type AdminRow = Selectable<AdminsTable>;
export type AuditRow = Selectable<AuditLogTable>;
export type PhoneAccountRow = Selectable<PhoneAccountsTable>;
export type GroupRow = Selectable<SeatGroupsTable>;
/** A group with its kept counts (missing counts are zero). */
export type GroupWithCounts = GroupRow &
  Pick<GroupCountsTable, 'chats' | 'waiting_chats' | 'unread' | 'waiting_unread'>;
export type SessionRow = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
export type MessageRow = Selectable<MessagesTable>;
export type NewMessage = Insertable<MessagesTable>;
export type QuickReplyRow = Selectable<QuickRepliesTable>;
export type BatchRow = Selectable<BatchesTable>;
export type BatchItemRow = Selectable<BatchItemsTable>;
export type NewBatchItem = Insertable<BatchItemsTable>;
export type TranslationMemoryRow = Selectable<TranslationMemoryTable>;
export type MediaRow = Selectable<MediaTable>;
export type TelegramProfileRow = Selectable<TelegramProfilesTable>;
export type TelegramBotRow = Selectable<TelegramBotsTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type SandboxEntryRow = Selectable<SandboxEntriesTable>;

/** A label the owner defined (migration 047; issue 35). */
export interface LabelsTable {
  id: Generated<number>;
  name: string;
  /** The name in lower case: unique, so two labels never differ by letter case only. */
  name_key: string;
  color: LabelColor;
  created_at: number;
  updated_at: number;
}
export type LabelRow = Selectable<LabelsTable>;

/** A label on a chat's customer (migration 047). */
export interface ChatLabelsTable {
  session_id: number;
  label_id: number;
  created_at: number;
}
