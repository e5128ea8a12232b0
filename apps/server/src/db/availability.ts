import { sql } from 'kysely';
import { isDatabaseUnavailable } from '../lib/db-errors.js';
import type { Db } from './database.js';

/** How long the health check's probe may wait (for a connection, then for its answer). */
const PROBE_TIMEOUT_MS = 2_000;
/** While the database is away: how often it is tried, to say at once when it is back. */
const RETRY_MS = 500;

interface Log {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Whether the database can be reached, for the health check (503 "database unavailable") and
 * the log: one line when it goes away, one when it is back, not one per failed request or job
 * step. The pool itself needs no help: every query asks for a connection afresh, so service
 * resumes with the first one that opens.
 */
export class DatabaseAvailability {
  private reachable = true;
  private probing: Promise<boolean> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly log: Log,
  ) {}

  /**
   * A query failed: when it could not reach the database, the database is marked away (said
   * once). Answers whether that was the cause (the caller need not log it again).
   */
  failed(err: unknown): boolean {
    if (!isDatabaseUnavailable(err)) return false;
    if (this.reachable && !this.stopped) {
      this.reachable = false;
      const { code, message } = err as { code?: unknown; message?: unknown };
      this.log.error({ code, reason: message }, 'database unavailable: calls answer 500005');
      this.scheduleRetry();
    }
    return true;
  }

  /**
   * Asks the database now (`select 1`; probes asked for at once share one). Answers whether it
   * is reachable: a probe that neither answers nor fails in PROBE_TIMEOUT_MS (every connection
   * busy) keeps what was known.
   */
  async check(): Promise<boolean> {
    this.probing ??= this.probe().finally(() => (this.probing = null));
    const timeout = new Promise<null>((resolve) => {
      setTimeout(resolve, PROBE_TIMEOUT_MS, null).unref();
    });
    const answer = await Promise.race([this.probing, timeout]);
    return answer ?? this.reachable;
  }

  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private async probe(): Promise<boolean> {
    try {
      await sql`select 1`.execute(this.db);
    } catch (err) {
      // Any failure of `select 1` means the database cannot serve.
      if (!this.failed(err) && this.reachable) {
        this.reachable = false;
        this.log.error({ err }, 'database unavailable: calls answer 500005');
        this.scheduleRetry();
      }
      return false;
    }
    if (!this.reachable) {
      this.reachable = true;
      this.log.info({}, 'database reachable again');
    }
    return true;
  }

  private scheduleRetry(): void {
    if (this.retry || this.stopped) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.check().then((ok) => {
        if (!ok) this.scheduleRetry();
      });
    }, RETRY_MS);
    this.retry.unref();
  }
}

/**
 * `log` for background work (the jobs, the list version feed, the token checks): a line whose
 * `err` is the database being away is told to `availability` instead, which says it once,
 * rather than once per retry of each job with its stack.
 */
export function quietWhileDatabaseAway<L extends object>(
  log: L,
  availability: DatabaseAvailability,
): L {
  return new Proxy(log, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop !== 'error' && prop !== 'warn') return value.bind(target);
      return (obj: unknown, ...rest: unknown[]) => {
        const err = obj && typeof obj === 'object' ? (obj as { err?: unknown }).err : undefined;
        if (err !== undefined && availability.failed(err)) return;
        return (value as (...args: unknown[]) => unknown).call(target, obj, ...rest);
      };
    },
  });
}
