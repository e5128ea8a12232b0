import { RECENT_WINDOW_MS, SUCCESS_CODE } from '@parley/protocol';
import type { KnownVersions } from './known-versions.js';

const DAY_MS = 24 * 3600_000;

/**
 * A success answer already serialised (the whole envelope): sendSuccess sends its text as it
 * is. The list calls answer a repeated poll of unchanged data from such bytes.
 */
export class SerializedAnswer {
  constructor(readonly body: string) {}

  static of(data: unknown): SerializedAnswer {
    // The same text Fastify's JSON.stringify of sendSuccess's envelope gives.
    return new SerializedAnswer(JSON.stringify({ code: SUCCESS_CODE, msg: 'success', data }));
  }
}

/** A seat's list version and the latest_time of the list's oldest recent chat (null: none). */
export interface ListVersion {
  version: number;
  edge: number | null;
}

interface Entry {
  version: number;
  /** The answer holds until this moment (ms): then a chat leaves the "last 24 hours" tab. */
  validUntil: number;
  answer: SerializedAnswer;
}

/**
 * Answers of the list calls by seat and request, each under the seat's list version it was
 * read at (migration 025: the database raises it on every change of the seat's chats or
 * groups, from any instance). The version is read before the data, so an entry is never older
 * than its version says; a change committed in between only makes the entry look older than it
 * is (it is read again). Bounded by total size; least recently used entries go first.
 */
export class ListCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly versions: KnownVersions,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /**
   * The seat's list answer under `key`: from cached bytes while the seat's version is the one
   * they were read at (known without asking when KnownVersions trusts it, else read by
   * `readVersion`) and no chat of the list has left the last 24 hours; else read by `read`.
   */
  async answer(
    seatId: number,
    key: string,
    readVersion: (since: number) => Promise<ListVersion>,
    read: (now: number) => Promise<unknown>,
  ): Promise<SerializedAnswer> {
    const now = Date.now();
    const known = this.versions.known(seatId);
    const hit = known === undefined ? undefined : this.get(key, known, now);
    if (hit) return hit;
    // The version first: the data read after it is at least as new as it says (a change in
    // between only makes the answer look older than it is).
    const mark = this.versions.mark(seatId);
    const { version, edge } = await readVersion(now - RECENT_WINDOW_MS);
    this.versions.learned(seatId, version, mark);
    const cached = this.get(key, version, now);
    if (cached) return cached;
    const answer = SerializedAnswer.of(await read(now));
    this.set(key, version, validUntil(edge, now), answer);
    return answer;
  }

  /**
   * As `answer`, where the version and the data are one read (PostgreSQL's getGroupInfo: one
   * statement per miss, the round trips being most of its cost). `read` is given the version of
   * the answer held (-1: none) and reads no data at that version (`data` null): then the held
   * bytes are the answer.
   */
  async answerInOne(
    seatId: number,
    key: string,
    read: (held: number, now: number) => Promise<ListVersion & { data: unknown }>,
  ): Promise<SerializedAnswer> {
    const now = Date.now();
    const known = this.versions.known(seatId);
    const hit = known === undefined ? undefined : this.get(key, known, now);
    if (hit) return hit;
    const mark = this.versions.mark(seatId);
    let got = await read(this.heldVersion(key, now) ?? -1, now);
    this.versions.learned(seatId, got.version, mark);
    if (got.data === null) {
      const cached = this.get(key, got.version, now);
      if (cached) return cached;
      // Dropped meanwhile (a concurrent read replaced it, or made room): read it whole.
      got = await read(-1, now);
    }
    const answer = SerializedAnswer.of(got.data);
    this.set(key, got.version, validUntil(got.edge, now), answer);
    return answer;
  }

  /** The version the answer under `key` was read at, while it holds by time. */
  private heldVersion(key: string, now: number): number | undefined {
    const entry = this.entries.get(key);
    return entry && now < entry.validUntil ? entry.version : undefined;
  }

  get(key: string, version: number, now: number): SerializedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || now >= entry.validUntil) {
      this.remove(key, entry);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.answer;
  }

  set(key: string, version: number, validUntil: number, answer: SerializedAnswer): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const size = answer.body.length + key.length;
    if (size > this.maxBytes) return;
    this.entries.set(key, { version, validUntil, answer });
    this.bytes += size;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(k, e);
    }
  }

  private remove(key: string, entry: Entry) {
    this.entries.delete(key);
    this.bytes -= entry.answer.body.length + key.length;
  }
}

/**
 * How long a list answer read now holds: until the oldest recent chat of the list turns 24
 * hours old (it changes tab), and no later than the UTC day's end (the customers' photo URLs
 * in it are signed by the day).
 */
function validUntil(edge: number | null, now: number): number {
  const dayEnd = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
  return Math.min(edge === null ? Infinity : edge + RECENT_WINDOW_MS, dayEnd);
}
