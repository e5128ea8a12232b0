const cache = new Map<string, Intl.DateTimeFormat>();

/**
 * One formatter per locale and kind, built once: a list row formats its time on every render,
 * and a key made of the options (JSON) cost more than the formatting (sign-in profile).
 */
function fmt(locale: string, kind: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${kind}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, opts);
    cache.set(key, f);
  }
  return f;
}

/** Whether two instants fall on the same local day (no string per call). */
function sameLocalDay(a: Date, b: Date): boolean {
  return (
    a.getDate() === b.getDate() &&
    a.getMonth() === b.getMonth() &&
    a.getFullYear() === b.getFullYear()
  );
}

/** Short time for lists: hh:mm today, else the date. */
export function formatListTime(ms: number, locale: string, now = Date.now()): string {
  const d = new Date(ms);
  const today = new Date(now);
  return sameLocalDay(d, today)
    ? fmt(locale, 'time', { hour: '2-digit', minute: '2-digit' }).format(d)
    : fmt(locale, 'date', { month: '2-digit', day: '2-digit' }).format(d);
}

/** Time of a message bubble: hh:mm, with the date when not today. */
export function formatMessageTime(ms: number, locale: string, now = Date.now()): string {
  const d = new Date(ms);
  return sameLocalDay(d, new Date(now))
    ? fmt(locale, 'time', { hour: '2-digit', minute: '2-digit' }).format(d)
    : fmt(locale, 'date-time', {
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      }).format(d);
}

/**
 * Builds the locale's formatters ahead: the first one costs several ms (the locale's data is
 * loaded), which the console's first rows would otherwise pay inside their render.
 */
export function prepareTimeFormats(locale: string): void {
  const d = new Date();
  formatListTime(d.getTime(), locale);
  formatListTime(0, locale);
  formatMessageTime(0, locale);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "5 minutes ago", "yesterday": how long ago a time was. */
export function formatAgo(at: number, locale: string, now = Date.now()): string {
  const diff = at - now;
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(diff);
  if (abs < MINUTE) return rtf.format(Math.round(diff / 1000), 'second');
  if (abs < HOUR) return rtf.format(Math.round(diff / MINUTE), 'minute');
  if (abs < DAY) return rtf.format(Math.round(diff / HOUR), 'hour');
  return rtf.format(Math.round(diff / DAY), 'day');
}
