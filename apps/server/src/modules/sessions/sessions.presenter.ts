import { MEDIA_PATH_PREFIX, type SessionItem } from '@parley/protocol';
import type { SessionRow } from '../../db/schema.js';
import type { MediaUrls } from '../media/media-urls.js';
import { REPLY_WINDOW } from './reply-window.js';

type ColumnField = { column: keyof SessionRow; flag?: true };

/**
 * The SessionItem fields read straight from the chat's row: its column, and whether it is a
 * 0/1 flag answered as a boolean. toSessionItem and the SQL that builds a chat's answer
 * (sessionItemSql: the batch statement of sends records events with it) both read this list,
 * so a new field of a chat is added here once.
 */
export const SESSION_ITEM_COLUMNS = {
  session_id: { column: 'id' },
  send_phone: { column: 'send_phone' },
  receiver_phone: { column: 'receiver_phone' },
  un_read_count: { column: 'un_read_count' },
  add_time: { column: 'add_time' },
  latest_time: { column: 'latest_time' },
  group_id: { column: 'group_id' },
  is_top: { column: 'is_top', flag: true },
  remark: { column: 'remark' },
  blocked: { column: 'blocked', flag: true },
  customer_language: { column: 'customer_language' },
  customer_name: { column: 'customer_name' },
} as const satisfies Partial<Record<keyof SessionItem, ColumnField>>;

type ColumnFields = keyof typeof SESSION_ITEM_COLUMNS;
const COLUMN_FIELDS = Object.entries(SESSION_ITEM_COLUMNS) as [ColumnFields, ColumnField][];

/**
 * `urls` signs the customer's photo for the chat's seat (absent: no photo is shown, the client
 * draws initials). The URL stays the same all day, so cached lists keep their bytes (ListCache
 * keeps an answer no later than the day's end).
 */
export function toSessionItem(
  row: SessionRow,
  recentSince: number,
  urls: MediaUrls | undefined,
): SessionItem {
  const item = {} as Record<ColumnFields, unknown>;
  for (const [field, { column, flag }] of COLUMN_FIELDS) {
    item[field] = flag ? row[column] === 1 : row[column];
  }
  return {
    ...(item as Pick<SessionItem, ColumnFields>),
    // The fields computed from several columns (SQL builders take them from a draft).
    user_time_type: row.latest_time >= recentSince ? 1 : 2,
    avatar_url:
      row.customer_avatar && urls
        ? urls.urlsFor(row.seat_id, row.customer_avatar, false).url
        : null,
    last_message:
      row.last_type && row.last_direction
        ? {
            type: row.last_type,
            direction: row.last_direction,
            preview: row.last_preview ?? '',
            created_at: row.latest_time,
          }
        : null,
    ...REPLY_WINDOW.present(row.reply_until, Date.now()),
  };
}

/**
 * SESSION_ITEM_COLUMNS as a PostgreSQL jsonb object of the row `row` (a composite value): the
 * fields toSessionItem reads from columns, converted as it converts them, and `avatar_url`
 * signed as MediaUrls.urlsFor signs it. `signing`: the statement's placeholders of a
 * SqlSigning's `ipad`, `opad` (hex text) and `exp` (bigint); null values give no photo.
 */
export function sessionItemSql(
  row: string,
  signing: { ipad: string; opad: string; exp: string },
): string {
  const pairs = COLUMN_FIELDS.map(
    ([field, { column, flag }]) => `'${field}', (${row}).${column}${flag ? ' = 1' : ''}`,
  );
  pairs.push(`'avatar_url', ${avatarUrlSql(row, signing)}`);
  pairs.push(REPLY_WINDOW.presentSql(`(${row}).reply_until`));
  return `jsonb_build_object(${pairs.join(', ')})`;
}

/** HMAC-SHA256 from the padded keys (RFC 2104), base64url without padding, as MediaUrls. */
function avatarUrlSql(row: string, s: { ipad: string; opad: string; exp: string }): string {
  const media = `(${row}).customer_avatar`;
  const message = `convert_to((${row}).seat_id || E'\\n' || ${media} || E'\\n' || ${s.exp}, 'UTF8')`;
  const mac = `sha256(decode(${s.opad}, 'hex') || sha256(decode(${s.ipad}, 'hex') || ${message}))`;
  const sig = `rtrim(translate(encode(${mac}, 'base64'), '+/', '-_'), '=')`;
  return `case when ${media} is null then null else '${MEDIA_PATH_PREFIX}' || ${media}
    || '?seat=' || (${row}).seat_id || '&exp=' || ${s.exp} || '&sig=' || ${sig} end`;
}
