import type { SessionItem } from '@parley/protocol';

type Customer = Pick<SessionItem, 'remark' | 'customer_name' | 'receiver_phone'>;

/** What the seat calls a customer: its remark, else the channel's name, else the number. */
export function customerDisplayName(c: Customer): string {
  return c.remark.trim() || c.customer_name?.trim() || c.receiver_phone;
}

/** The name shown above the number, or null when the customer is only a number. */
export function customerNameOrNull(c: Customer): string | null {
  const name = customerDisplayName(c);
  return name === c.receiver_phone ? null : name;
}

/**
 * Up to two letters for an avatar: the first letters of the first and last words of a name
 * (one character for a one-word name, or a name in a script without spaces), else the
 * number's last two digits.
 */
export function initialsOf(c: Customer): string {
  const name = customerNameOrNull(c);
  if (!name) return c.receiver_phone.replace(/\D/g, '').slice(-2);
  const words = name
    .replace(/^@/, '')
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  const first = (w: string | undefined) => [...(w ?? '').replace(/^[^\p{L}\p{N}]+/u, '')][0] ?? '';
  const letters =
    words.length > 1 ? first(words[0]) + first(words[words.length - 1]) : first(words[0]);
  return letters.toLocaleUpperCase() || c.receiver_phone.replace(/\D/g, '').slice(-2);
}

/** Mantine colours an avatar may take (readable in light and dark). */
export const AVATAR_COLORS = [
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'yellow',
  'orange',
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
] as const;

/**
 * A customer's colour, the same on every screen and every load: a hash (FNV-1a) of the
 * account and the customer's number, so two customers rarely share one.
 */
export function avatarColorOf(c: Pick<SessionItem, 'send_phone' | 'receiver_phone'>): string {
  let hash = 0x811c9dc5;
  for (const ch of `${c.send_phone}|${c.receiver_phone}`) {
    hash ^= ch.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return AVATAR_COLORS[hash % AVATAR_COLORS.length]!;
}
