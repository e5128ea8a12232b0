import { ERROR_CODES, isEventType, type ServerFrame } from '@parley/protocol';
import type { Db } from '../db/database.js';
import { AppError } from '../lib/app-error.js';
import { eventsRepository, type LoggedEvent } from '../modules/events/events.repository.js';

/** What the hub needs of a socket (a `ws` WebSocket). */
export interface PushSocket {
  readonly readyState: number;
  /** A frame: text, or its UTF-8 bytes sent as a text frame (`binary: false`). */
  send(data: string | Buffer, options?: { binary?: boolean }): void;
  ping(): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
}

export interface Connection {
  socket: PushSocket;
  seatId: number;
  tokenHash: string;
  /** The newest event number this socket has been sent (it has been sent every one before). */
  lastSent: number;
  /** Its `ready`'s heartbeat (a `reset` later in the stream says it again). */
  heartbeatMs: number;
  /** Answered the last WebSocket ping. */
  alive: boolean;
}

export interface SentEvent {
  seat_id: number;
  seq: number;
  type: string;
  request_id: string | null;
}

/** More missed events than this: the console refetches instead (a `reset`). */
export const MAX_REPLAY = 1000;
const PAGE = 200;
const OPEN = 1;

/**
 * The sockets of this instance, by seat. `notify(seat)` reads the seat's events after what each
 * socket was sent, in order, from the event log: the log is the only source, so a socket never
 * gets an event twice or out of order, whichever instance or process recorded it. Events this
 * instance has just committed come with the notice, as the log holds them: sent as they are
 * when they follow on what each of the seat's sockets was sent, else read from the log.
 *
 * A socket is only ever sent the event that follows its `lastSent` (issue 32): rows that start
 * further on wait, and the drain reads again from the lowest `lastSent` until no socket is
 * behind. A socket that resumed while a read of the seat's log was in flight (PostgreSQL awaits
 * it; SQLite's read is synchronous) used to take that read's rows and skip its missed range.
 */
export class RealtimeHub {
  private readonly bySeat = new Map<number, Set<Connection>>();
  private readonly draining = new Map<number, Promise<void>>();
  private readonly dirty = new Set<number>();
  /** Told of each event frame sent to a socket (metrics, and its log line with the request id). */
  onSent: ((event: SentEvent) => void) | null = null;
  /** Told first of each seat with new events, from here or another instance (the list caches). */
  onNotified: ((seatId: number) => void) | null = null;

  constructor(private readonly db: Db) {}

  seatIds(): number[] {
    return [...this.bySeat.keys()];
  }

  /** The lowest event number sent to the seat's sockets (what a drain would start after). */
  lowestSent(seatId: number): number | null {
    const conns = this.bySeat.get(seatId);
    if (!conns || conns.size === 0) return null;
    return Math.min(...[...conns].map((c) => c.lastSent));
  }

  connections(): Connection[] {
    return [...this.bySeat.values()].flatMap((set) => [...set]);
  }

  /**
   * Authenticated socket with the client's resume point: answers `ready` (then the missed
   * events follow) or `reset` (too old: the client refetches) and joins the seat's sockets.
   */
  async join(
    conn: Omit<Connection, 'lastSent' | 'alive' | 'heartbeatMs'>,
    lastEventId: number,
    heartbeatMs: number,
  ) {
    const [counter] = await eventsRepository.lastSeqs(this.db, [conn.seatId]);
    const newest = Number(counter?.last_seq ?? 0);
    let from = lastEventId;
    let kind: 'ready' | 'reset' = 'ready';
    if (lastEventId === 0) {
      from = newest; // a fresh console: it has just fetched everything
    } else if (lastEventId > newest || newest - lastEventId > MAX_REPLAY) {
      kind = 'reset';
    } else if (lastEventId < newest) {
      const [first] = await eventsRepository.after(this.db, conn.seatId, lastEventId, 1);
      if (first?.seq !== lastEventId + 1) kind = 'reset'; // pruned: a gap
    }
    if (kind === 'reset') from = newest;
    send(conn.socket, { kind, last_event_id: newest, heartbeat_ms: heartbeatMs });
    const joined: Connection = { ...conn, lastSent: from, alive: true, heartbeatMs };
    let set = this.bySeat.get(conn.seatId);
    if (!set) this.bySeat.set(conn.seatId, (set = new Set()));
    set.add(joined);
    this.notify(conn.seatId);
    return joined;
  }

  leave(conn: Connection): void {
    const set = this.bySeat.get(conn.seatId);
    if (!set) return;
    set.delete(conn);
    if (set.size === 0) this.bySeat.delete(conn.seatId);
  }

  /** The seat has new events: send them (one drain per seat at a time; a notice meanwhile reruns it). */
  notify(seatId: number, committed?: readonly LoggedEvent[]): void {
    this.onNotified?.(seatId);
    const conns = this.bySeat.get(seatId);
    if (!conns) return;
    if (committed && !this.draining.has(seatId) && follows(conns, committed)) {
      const frames = framesOf(committed);
      for (const conn of conns) this.sendRows(conn, committed, frames);
      return;
    }
    this.startDrain(seatId);
  }

  private startDrain(seatId: number): void {
    if (this.draining.has(seatId)) {
      this.dirty.add(seatId);
      return;
    }
    const run = (async () => {
      do {
        this.dirty.delete(seatId);
        await this.drain(seatId);
      } while (this.dirty.has(seatId));
    })()
      .catch(() => {
        // The next notice or poll tries again.
      })
      .finally(() => {
        this.draining.delete(seatId);
        // A notice taken after the loop's last look (it ends a few microtasks before this):
        // with Redis nothing polls, so it would wait for the seat's next event.
        if (this.dirty.has(seatId)) this.startDrain(seatId);
      });
    this.draining.set(seatId, run);
  }

  /** Waits for the drains in progress (tests, shutdown). */
  async settle(): Promise<void> {
    await Promise.all(this.draining.values());
  }

  /**
   * Reads the log from the lowest `lastSent` of the seat's sockets and sends each socket what
   * follows on its own; again while a page was full or a socket is still behind what was read
   * (one that joined during the read, with an older resume point).
   */
  private async drain(seatId: number): Promise<void> {
    for (;;) {
      const from = this.lowestSent(seatId);
      if (from === null) return;
      const rows = await eventsRepository.after(this.db, seatId, from, PAGE);
      const conns = this.bySeat.get(seatId) ?? new Set<Connection>();
      const first = rows.length > 0 ? Number(rows[0]!.seq) : null;
      if (first !== null && first > from + 1) this.resetPruned(conns, from, first);
      const frames = framesOf(rows);
      for (const conn of conns) this.sendRows(conn, rows, frames);
      const read = rows.length > 0 ? Number(rows.at(-1)!.seq) : from;
      const lowest = this.lowestSent(seatId);
      if (rows.length < PAGE && (lowest === null || lowest >= read)) return;
    }
  }

  /**
   * The log no longer holds the events after `from` up to `first` (pruned while the sockets
   * there were behind): they are told `reset` (the console refetches), never skipped silently.
   */
  private resetPruned(conns: Iterable<Connection>, from: number, first: number) {
    for (const conn of conns) {
      if (conn.lastSent < from || conn.lastSent >= first - 1) continue;
      conn.lastSent = first - 1;
      send(conn.socket, {
        kind: 'reset',
        last_event_id: conn.lastSent,
        heartbeat_ms: conn.heartbeatMs,
      });
    }
  }

  /**
   * Sends the rows (consecutive, oldest first) that follow on what the socket was sent, as
   * `frames` (the rows' frames, serialised once for every socket of the seat). Rows that start
   * after a gap are left: the socket is behind, and the drain reads from its `lastSent`.
   */
  private sendRows(conn: Connection, rows: readonly LoggedEvent[], frames: (Buffer | null)[]) {
    rows.forEach((row, i) => {
      const seq = Number(row.seq);
      if (seq !== conn.lastSent + 1) return;
      conn.lastSent = seq;
      // Rows are written from the event map; a type it no longer has is not sent.
      const frame = frames[i];
      if (!frame) return;
      this.write(conn.socket, frame);
      this.onSent?.(row);
    });
  }

  /**
   * Every write to a socket in this turn of the event loop leaves in one system call: the
   * socket is corked at its first frame and uncorked once the turn's work is done (a commit's
   * events reach the hub one publish at a time; a seat's 50 consoles would otherwise cost 50
   * writes per event).
   */
  private write(socket: PushSocket, frame: Buffer): void {
    if (socket.readyState !== OPEN) return;
    const stream = streamOf(socket);
    if (stream && !this.corked.has(stream)) {
      stream.cork();
      this.corked.add(stream);
      if (this.corked.size === 1) process.nextTick(this.uncorkAll);
    }
    socket.send(frame, { binary: false });
  }

  private readonly corked = new Set<Corkable>();
  private readonly uncorkAll = () => {
    for (const stream of this.corked) stream.uncork();
    this.corked.clear();
  };

  /**
   * An ephemeral frame (who is looking at a team chat) to every socket of these seats here:
   * outside the event log, so it has no event number and moves no socket's `lastSent`.
   */
  sendEphemeral(seatIds: readonly number[], frame: ServerFrame): void {
    let bytes: Buffer | null = null;
    for (const seatId of seatIds) {
      for (const conn of this.bySeat.get(seatId) ?? []) {
        bytes ??= Buffer.from(JSON.stringify(frame));
        this.write(conn.socket, bytes);
      }
    }
  }

  /** Closes the seat's sockets of a token just revoked (null: of all its tokens), as `expire`. */
  expireTokens(seatId: number, tokenHash: string | null): void {
    for (const conn of [...(this.bySeat.get(seatId) ?? [])]) {
      if (tokenHash === null || conn.tokenHash === tokenHash) this.expire(conn);
    }
  }

  /** Closes a socket whose token is no longer valid, saying so first (400002). */
  expire(conn: Connection): void {
    const err = new AppError(ERROR_CODES.TOKEN_EXPIRED);
    send(conn.socket, { kind: 'error', code: err.code, msg: err.message });
    conn.socket.close(4001, 'token expired');
    this.leave(conn);
  }
}

/**
 * Whether every socket has been sent all the seat's events before these (consecutive) ones:
 * then they can be sent as they are. A socket that missed one (another transaction of the
 * seat committed first, its notice not handled yet) reads the log instead.
 */
function follows(conns: Iterable<Connection>, rows: readonly LoggedEvent[]): boolean {
  const first = Number(rows[0]?.seq);
  for (const conn of conns) {
    if (conn.lastSent + 1 < first) return false;
  }
  return rows.length > 0;
}

/**
 * Each row's event frame as bytes, built once for all the sockets it goes to: the row's data
 * is JSON already, so it is spliced in as it is (the same text as JSON.stringify of the frame
 * with the parsed data). Null: a type the event map no longer has.
 */
export function framesOf(rows: readonly LoggedEvent[]): (Buffer | null)[] {
  return rows.map((row) =>
    isEventType(row.type)
      ? Buffer.from(
          `{"kind":"event","id":${Number(row.seq)},"type":${JSON.stringify(row.type)},"data":${row.data},"at":${Number(row.at)}}`,
        )
      : null,
  );
}

interface Corkable {
  cork(): void;
  uncork(): void;
}

/** The TCP stream under a `ws` socket (ws 8 keeps it in `_socket`), when it has one. */
function streamOf(socket: PushSocket): Corkable | null {
  const stream = (socket as { _socket?: Partial<Corkable> | null })._socket;
  return stream && typeof stream.cork === 'function' && typeof stream.uncork === 'function'
    ? (stream as Corkable)
    : null;
}

export function send(socket: PushSocket, frame: ServerFrame): void {
  if (socket.readyState === OPEN) socket.send(JSON.stringify(frame));
}
