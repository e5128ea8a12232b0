/**
 * Local days and hours of an IANA time zone as UTC instants (the owner's charts). Intl knows
 * the zone's rules, so days crossing daylight saving time have 23 or 25 hours and half-hour
 * zones (Asia/Kolkata) start their hours at :30 UTC.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    formatOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's wall clock at `instant`, as if it were UTC (epoch ms). */
function wallClock(timeZone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatOf(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
}

/** Minutes to add to UTC for the zone's local time at `instant`. */
export function offsetAt(timeZone: string, instant: number): number {
  const second = Math.floor(instant / 1000) * 1000;
  return Math.round((wallClock(timeZone, second) - second) / 60_000);
}

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of the zone's day at `instant`. */
export function localDate(timeZone: string, instant: number): string {
  return new Date(wallClock(timeZone, instant)).toISOString().slice(0, 10);
}

/** Days from one 'YYYY-MM-DD' to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** When the local day `date` ('YYYY-MM-DD') starts, as a UTC instant. */
export function dayStart(timeZone: string, date: string): number {
  const wall = Date.parse(date);
  // The offset at a guess, then at the instant it gives (the two differ only near a change).
  const guess = wall - offsetAt(timeZone, wall) * 60_000;
  return wall - offsetAt(timeZone, guess) * 60_000;
}

export interface Bucket {
  start: number;
  end: number;
}

const HOUR_MS = 3_600_000;

/**
 * The buckets of a range of local days: hours for one day (23, 24 or 25 of them), else days.
 * An hour is 60 minutes from the local midnight, so in every zone whose offsets change by whole
 * hours each bucket is one local hour.
 */
export function bucketsOf(timeZone: string, from: string, to: string, byDay = false): Bucket[] {
  const days = daysBetween(from, to) + 1;
  const starts = Array.from({ length: days + 1 }, (_, i) => dayStart(timeZone, addDays(from, i)));
  if (days > 1 || byDay)
    return starts.slice(0, -1).map((start, i) => ({ start, end: starts[i + 1]! }));
  const [start, end] = starts as [number, number];
  const hours: Bucket[] = [];
  for (let t = start; t < end; t += HOUR_MS)
    hours.push({ start: t, end: Math.min(t + HOUR_MS, end) });
  return hours;
}
