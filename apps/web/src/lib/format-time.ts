const cache = new Map<string, Intl.DateTimeFormat>();

function fmt(locale: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(opts)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, opts);
    cache.set(key, f);
  }
  return f;
}

/** Short time for lists: hh:mm today, else the date. */
export function formatListTime(ms: number, locale: string, now = Date.now()): string {
  const d = new Date(ms);
  const today = new Date(now);
  const sameDay = d.toDateString() === today.toDateString();
  return sameDay
    ? fmt(locale, { hour: '2-digit', minute: '2-digit' }).format(d)
    : fmt(locale, { month: '2-digit', day: '2-digit' }).format(d);
}

/** Time of a message bubble: hh:mm, with the date when not today. */
export function formatMessageTime(ms: number, locale: string, now = Date.now()): string {
  const d = new Date(ms);
  const sameDay = d.toDateString() === new Date(now).toDateString();
  return sameDay
    ? fmt(locale, { hour: '2-digit', minute: '2-digit' }).format(d)
    : fmt(locale, {
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      }).format(d);
}
