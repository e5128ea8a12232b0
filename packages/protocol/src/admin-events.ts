import { z } from 'zod';
import { overview } from './calls/admin.js';

/**
 * The administrator's push channel: one WebSocket per open admin console. The client sends
 * `adminClientHello` first (its admin token; a seat token is refused like an expired one), the
 * server answers `ready` and then an `admin.overview` snapshot, and another whenever the numbers
 * change (a message in or out, an outbox change; debounced), plus `admin.changed` hints telling
 * which lists to refetch. No replay: on reconnect the console refetches what it shows.
 */
export const ADMIN_REALTIME_PATH = '/v1/admin/realtime' as const;

/** Close codes: 4001 the token expired or was revoked (as on the seat socket), 4000 a bad hello. */
export const ADMIN_PUSH_CLOSE = {
  BAD_HELLO: 4000,
  TOKEN_EXPIRED: 4001,
  SERVICE_RESTART: 1012,
} as const;
/** Overview snapshots are sent at most this often. */
export const ADMIN_OVERVIEW_DEBOUNCE_MS = 1_000;

export const adminChangeScope = z.enum([
  'seats',
  'accounts',
  'outbox',
  'audit',
  'translation',
  'labels',
]);
export type AdminChangeScope = z.infer<typeof adminChangeScope>;

export const ADMIN_EVENT_PAYLOADS = {
  /** The whole overview, as /v1/admin/overview answers it (for the hello's tz_offset_min). */
  'admin.overview': overview,
  /** Lists changed (by any administrator or the CLI, or presence): refetch these. */
  'admin.changed': z.object({ scopes: z.array(adminChangeScope) }),
} as const;
export type AdminEventType = keyof typeof ADMIN_EVENT_PAYLOADS;
export const ADMIN_EVENT_TYPES = Object.keys(ADMIN_EVENT_PAYLOADS) as AdminEventType[];

const at = z.number().int().nonnegative();
/** One frame from the server (a union: `kind`, then `type` for events). */
export const adminServerFrame = z.union([
  z.object({ kind: z.literal('ready'), heartbeat_ms: z.number().int().positive() }),
  z.object({
    kind: z.literal('event'),
    type: z.literal('admin.overview'),
    data: ADMIN_EVENT_PAYLOADS['admin.overview'],
    at,
  }),
  z.object({
    kind: z.literal('event'),
    type: z.literal('admin.changed'),
    data: ADMIN_EVENT_PAYLOADS['admin.changed'],
    at,
  }),
  z.object({ kind: z.literal('ping'), at }),
  /** The token expired or was revoked (400002): the socket closes with 4001. */
  z.object({ kind: z.literal('error'), code: z.string(), msg: z.string() }),
]);
export type AdminServerFrame = z.infer<typeof adminServerFrame>;

export const adminClientHello = z.object({
  token: z.string().min(1).max(256),
  /** The console's UTC offset in minutes: "today" of the pushed overview. */
  tz_offset_min: z.number().int().min(-840).max(840).default(0),
});
export type AdminClientHello = z.input<typeof adminClientHello>;
