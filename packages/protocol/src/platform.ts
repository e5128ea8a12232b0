import { z } from 'zod';
import { epochMs, id, messageStatus, messageType, phone } from './entities.js';
import { CUSTOMER_NAME_MAX } from './limits.js';

/**
 * The messaging platform's side of Parley (docs/platform-api.md): signed requests to
 * `/v1/platform/...`, answered with the same `{ code, msg, data }` envelope as the seat API.
 */
export const PLATFORM_PATHS = {
  message: '/v1/platform/messages',
  receipt: '/v1/platform/receipts',
  deletion: '/v1/platform/deletions',
} as const;

/**
 * Signing, both ways: `x-parley-signature` is the hex HMAC-SHA256 with the shared secret over
 * `${timestamp}.${rawBody}`, `x-parley-timestamp` the time of signing in epoch seconds; a
 * request further than 5 minutes from the receiver's clock is refused as stale.
 */
export const PLATFORM_TIMESTAMP_HEADER = 'x-parley-timestamp';
export const PLATFORM_SIGNATURE_HEADER = 'x-parley-signature';
export const PLATFORM_SIGNATURE_MAX_AGE_MS = 5 * 60_000;

/** The platform's id of a message: the inbound API stores each (account, id) once. */
const platformMsgId = z.string().trim().min(1).max(128);

/**
 * The customer's display name as the channel knows it: trimmed, control characters dropped,
 * cut to CUSTOMER_NAME_MAX characters; an empty one is no name (the last one given stays).
 */
export const customerName = z
  .string()
  .max(1024)
  .transform((raw) =>
    // eslint-disable-next-line no-control-regex
    [...raw.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim()]
      .slice(0, CUSTOMER_NAME_MAX)
      .join('')
      .trim(),
  )
  .optional();

/** A customer's message. Media: `media.data` base64 (JSON) or a multipart `file` part. */
export const platformMessage = z.object({
  id: platformMsgId,
  /** The Parley phone account the customer wrote to. */
  account: phone,
  customer: phone,
  /** The customer's name on the platform (shown to the seat when it set no remark). */
  name: customerName,
  type: messageType,
  /** Text, or the caption of a media message. */
  content: z.string().max(4096).default(''),
  media: z
    .object({
      data: z.string().min(1),
      file_name: z.string().max(255).optional(),
      duration_ms: z.number().int().nonnegative().optional(),
    })
    .optional(),
  /** When the customer sent it (epoch ms); default: when Parley took it. */
  sent_at: epochMs.optional(),
  /**
   * A reply: the platform's id of the quoted message of this chat (the `id` it sent for a
   * customer's message, or the `external_id` it gave an operator's message). A quoted
   * message Parley does not know in this chat is left out: the message is stored unquoted.
   */
  reply_to: platformMsgId.optional(),
  /**
   * A reply by Parley's id of the quoted message (the `msg_id` of an operator's message it was
   * sent, or of a customer's message as answered). Another chat's id is refused (100001).
   */
  reply_to_msg_id: id.optional(),
});
export type PlatformMessage = z.infer<typeof platformMessage>;

export const platformMessageAnswer = z.object({
  /** Parley's message id; null when nothing was stored (the chat is blocked). */
  msg_id: id.nullable(),
  blocked: z.boolean(),
  /** The same platform id was taken before: nothing new was stored. */
  duplicate: z.boolean(),
});

/** A delivery receipt of an operator's message (Parley's `msg_id`, the idempotency key sent). */
export const platformReceipt = z.object({
  account: phone,
  msg_id: id,
  status: messageStatus.exclude(['pending']),
  /** The platform's id of the delivered message. */
  external_id: z.string().trim().min(1).max(128).optional(),
  error: z.string().max(512).optional(),
});
export type PlatformReceipt = z.infer<typeof platformReceipt>;

/** The customer deleted one of their messages (the platform's id of it). */
export const platformDeletion = z.object({
  account: phone,
  id: platformMsgId,
});
export type PlatformDeletion = z.infer<typeof platformDeletion>;

/** The answer to a receipt: the status the message now holds (it only moves forward). */
export const platformReceiptAnswer = z.object({ msg_id: id, status: messageStatus });

/** The answer to a deletion: the message retracted (again: a repeat answers the same). */
export const platformDeletionAnswer = z.object({ msg_id: id });

/** What Parley POSTs to the platform's URL (signed the same way). */
export const platformOutbound = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('message'),
    /** Parley's message id: the idempotency key; receipts name it. */
    idempotency_key: z.string(),
    msg_id: z.number().int(),
    account: z.string(),
    customer: z.string(),
    type: messageType,
    content: z.string(),
    media: z
      .object({
        data: z.string(),
        mime: z.string(),
        file_name: z.string(),
        duration_ms: z.number().int().nullable(),
      })
      .nullable(),
    /**
     * A reply: the quoted message, by Parley's id and by the platform's (`external_id`: the id
     * the platform sent or answered for it; null when it has none). Null: not a reply.
     */
    reply_to: z.object({ msg_id: z.number().int(), external_id: z.string().nullable() }).nullable(),
  }),
  z.object({
    kind: z.literal('delete'),
    idempotency_key: z.string(),
    msg_id: z.number().int(),
    external_id: z.string().nullable(),
    account: z.string(),
    customer: z.string(),
  }),
]);
export type PlatformOutbound = z.infer<typeof platformOutbound>;

/**
 * The customer sandbox (on with the demo workspace, or PARLEY_SANDBOX=on): a page that plays
 * the customer through the bridge. Its media are signed URLs under `media`.
 */
export const SANDBOX_PATHS = {
  accounts: '/v1/sandbox/accounts',
  chat: '/v1/sandbox/chat',
  send: '/v1/sandbox/send',
  media: '/v1/sandbox/media',
} as const;

/**
 * The browser's sandbox key, sent with `chat` and `send`: a customer number of an account is
 * bound to the first key that uses it; another key answers 400003.
 */
export const SANDBOX_KEY_HEADER = 'x-parley-sandbox-key';
/** A key: 22 to 128 URL-safe characters (the page makes 32 random bytes, base64url). */
export const SANDBOX_KEY_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;

export const sandboxAccount = z.object({ send_phone: z.string(), label: z.string() });
export type SandboxAccount = z.infer<typeof sandboxAccount>;

export const sandboxEntry = z.object({
  id,
  /** 'in': the customer sent it; 'out': the operator's message delivered to the customer. */
  direction: z.enum(['in', 'out']),
  type: messageType,
  content: z.string(),
  /** The media's signed URL (expires at the end of the next UTC day; null: text or retracted). */
  media_url: z.string().nullable(),
  /** The media's original file name, size in bytes and length (audio, video; when known). */
  file_name: z.string().nullable(),
  size: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  deleted: z.boolean(),
  /** A customer message the chat did not take (blocked). */
  blocked: z.boolean(),
  created_at: z.number().int(),
  /**
   * A reply: what it shows of the entry it quotes (`id` that entry's; null when the page never
   * had it). `deleted`: the quoted message was retracted. Null: not a reply.
   */
  quote: z
    .object({
      id: id.nullable(),
      direction: z.enum(['in', 'out']),
      type: messageType,
      preview: z.string(),
      deleted: z.boolean(),
    })
    .nullable(),
});
export type SandboxEntry = z.infer<typeof sandboxEntry>;

export const sandboxSend = z.object({
  account: phone,
  customer: phone,
  /** The name the customer plays under (the platform's `name`). */
  name: customerName,
  type: messageType.default('text'),
  content: z.string().max(4096).default(''),
  media: z
    .object({ data: z.string().min(1), file_name: z.string().max(255).optional() })
    .optional(),
  /** A reply: the `id` of an entry of this chat (another chat's: 100001). */
  reply_to: id.optional(),
});
export type SandboxSend = z.input<typeof sandboxSend>;
