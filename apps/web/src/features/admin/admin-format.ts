/** Formatting of the admin console's numbers and times, by the UI language (Intl only). */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const unit = (locale: string, u: 'second' | 'minute' | 'hour' | 'day', n: number) =>
  new Intl.NumberFormat(locale, { style: 'unit', unit: u, unitDisplay: 'short' }).format(n);

/** A duration such as a wait or a response time: "45 sec", "12 min", "3 hr 5 min", "2 days 4 hr". */
export function formatDuration(ms: number, locale: string): string {
  const safe = Math.max(0, ms);
  if (safe < MINUTE) return unit(locale, 'second', Math.round(safe / 1000));
  if (safe < HOUR) return unit(locale, 'minute', Math.floor(safe / MINUTE));
  if (safe < DAY) {
    const h = Math.floor(safe / HOUR);
    const m = Math.floor((safe % HOUR) / MINUTE);
    return m ? `${unit(locale, 'hour', h)} ${unit(locale, 'minute', m)}` : unit(locale, 'hour', h);
  }
  const d = Math.floor(safe / DAY);
  const h = Math.floor((safe % DAY) / HOUR);
  return h ? `${unit(locale, 'day', d)} ${unit(locale, 'hour', h)}` : unit(locale, 'day', d);
}

/** How long ago a time was (lib/format-time.ts: a channel's admin panel shows it too). */
export { formatAgo } from '../../lib/format-time';

/** Date and time to the second, for the audit log. */
export function formatDateTime(at: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' }).format(at);
}

export function formatNumber(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}

/** A share (0..1) as a percentage with at most one decimal. */
export function formatShare(share: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(
    share,
  );
}

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What an audited action changed: the fields whose value differs between before and after
 * (all of after's for a creation, all of before's for a removal), in a stable order.
 */
export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): FieldChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields
    .filter((f) => !same(before?.[f], after?.[f]))
    .map((field) => ({ field, before: before?.[field], after: after?.[field] }));
}

/** A value of an audit row as one short line. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}
