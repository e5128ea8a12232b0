import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { LIST_VERSION_CHANNEL } from '../db/migrations/025-list-versions.js';
import type { KnownVersions } from './known-versions.js';

const RETRY_MS = 1000;
/** How long a probe notice may take before the feed is deemed deaf, and the wait to try again. */
const PROBE_WAIT_MS = 5000;
const PROBE_AGAIN_MS = 30_000;
/** The feed connection's application_name, to tell it apart in pg_stat_activity. */
const FEED_NAME = 'parley list versions';

/**
 * PostgreSQL: one connection of its own LISTENs to the seats' list changes (migration 026) and
 * tells KnownVersions, which trusts versions only while this connection listens. Lost, it is
 * opened again after a second; notices sent meanwhile are lost, so going live again starts
 * from nothing known. It goes live only once a probe notice sent through the app's own
 * connections (`announce`) has arrived on it: behind a pooler in transaction mode (PgBouncer)
 * LISTEN is taken but nothing is ever delivered, and then every read keeps asking.
 */
export class ListVersionFeed {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** The schema this install's tables are in (the payload's first part). */
  private schema = '';
  /** The probe notice awaited before going live, and its timer. */
  private probe: string | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private deafLogged = false;

  constructor(
    private readonly connection: { connectionString: string; schema: string | null },
    private readonly versions: KnownVersions,
    /** Sends a notice on the channel through the app's pool. */
    private readonly announce: (payload: string) => Promise<unknown>,
    private readonly log: (err: unknown) => void,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.endProbe();
    const client = this.client;
    this.client = null;
    this.versions.setLive(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const { connectionString, schema } = this.connection;
    const client = new pg.Client({
      connectionString,
      keepAlive: true,
      application_name: FEED_NAME,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    client.on('notification', (notice) => this.heard(notice));
    client.on('error', (err) => {
      this.log(err);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      this.schema = rows[0]?.schema ?? 'public';
      await client.query(`listen ${LIST_VERSION_CHANNEL}`);
    } catch (err) {
      this.log(err);
      await client.end().catch(() => undefined);
      this.retry();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.sendProbe(client);
  }

  private sendProbe(client: pg.Client): void {
    if (this.client !== client) return;
    const probe = `probe-${randomUUID()}`;
    this.probe = probe;
    this.probeTimer = setTimeout(() => {
      if (this.probe !== probe) return;
      if (!this.deafLogged) {
        this.deafLogged = true;
        this.log(new Error('list version notices do not arrive (a pooler in transaction mode?)'));
      }
      this.probeTimer = setTimeout(() => this.sendProbe(client), PROBE_AGAIN_MS).unref();
    }, PROBE_WAIT_MS).unref();
    this.announce(`${this.schema}:${probe}`).catch(this.log);
  }

  private endProbe(): void {
    this.probe = null;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = null;
  }

  private heard(notice: pg.Notification): void {
    const payload = notice.payload ?? '';
    const at = payload.lastIndexOf(':');
    if (notice.channel !== LIST_VERSION_CHANNEL || payload.slice(0, at) !== this.schema) return;
    if (this.probe !== null && payload.slice(at + 1) === this.probe) {
      this.endProbe();
      this.versions.setLive(true);
      return;
    }
    const seatId = Number(payload.slice(at + 1));
    if (Number.isSafeInteger(seatId)) this.versions.changed(seatId);
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.endProbe();
    this.versions.setLive(false);
    this.retry();
  }

  private retry(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, RETRY_MS);
    this.timer.unref();
  }
}
