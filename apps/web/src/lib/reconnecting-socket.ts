import { PUSH_CLOSE } from '@parley/protocol';

/** RFC 6455's "service restart": the server is draining, another instance takes the socket. */
const SERVICE_RESTART = PUSH_CLOSE.SERVICE_RESTART;

/** The reconnect delay: exponential from 500 ms to 30 s, with full jitter. */
export function backoffMs(attempt: number, random = Math.random): number {
  const cap = Math.min(30_000, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

/**
 * The wait before reconnecting after the socket closed with `closeCode`: a server that closed
 * it for a restart (draining, docs/deploy.md) is left at once, another instance takes the new
 * socket (a short random spread, so its consoles do not all arrive in the same millisecond);
 * any other drop backs off.
 */
export function reconnectDelayMs(
  closeCode: number | null,
  attempt: number,
  random = Math.random,
): number {
  if (closeCode === SERVICE_RESTART) return Math.round(random() * 200);
  return backoffMs(attempt, random);
}

/** `ws:` or `wss:` to `path` on the page's own host. */
export function socketUrl(location: { protocol: string; host: string }, path: string): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}`;
}

/**
 * A push socket that stays up: says hello when it opens, reconnects with back-off when it
 * drops or falls silent (no frame for two heartbeats), at once when the browser comes back
 * online, and stops for good when its login ends. The seat's console and the admin console
 * each extend it with their frames.
 */
export abstract class ReconnectingSocket<Frame> {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private heartbeatMs = 30_000;
  private stopped = false;
  private online = false;

  constructor(
    private readonly url: string,
    private readonly onOnline: (online: boolean) => void,
    private readonly onExpired: () => void,
  ) {}

  /** The first frame sent on each connection. */
  protected abstract hello(): unknown;
  /** One frame as the protocol describes it; null for anything else (skipped). */
  protected abstract parse(raw: string): Frame | null;
  protected abstract handle(frame: Frame): void;
  /** A close code that means the login ended (no reconnect). */
  protected expiredCloseCode: number | null = null;

  start(): void {
    this.stopped = false;
    this.open();
    window.addEventListener('online', this.reconnectNow);
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('online', this.reconnectNow);
    this.closeCurrent();
  }

  /** Timers cleared and the current socket closed without its close handler. */
  private closeCurrent(): void {
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.close();
    }
  }

  /** The server said ready: up, with its heartbeat; the back-off starts over. */
  protected connected(heartbeatMs: number): void {
    this.heartbeatMs = heartbeatMs;
    this.attempt = 0;
    this.setOnline(true);
  }

  /**
   * A new socket at once, with a new hello, staying online: the frames still arriving on the
   * old one are ignored. A drop of the new one backs off as usual.
   */
  protected reopen(): void {
    if (this.stopped) return;
    this.closeCurrent();
    this.open();
  }

  /** The login ended: no reconnect. */
  protected expired(): void {
    this.stop();
    this.setOnline(false);
    this.onExpired();
  }

  private readonly reconnectNow = () => {
    if (this.stopped || this.online) return;
    this.attempt = 0;
    this.dropped(null, 0);
  };

  private open(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify(this.hello()));
      this.arm();
    };
    ws.onmessage = (msg) => {
      if (ws !== this.ws) return;
      const frame = this.parse(String(msg.data));
      if (frame === null) return;
      this.arm();
      this.handle(frame);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      if (event.code === this.expiredCloseCode) return this.expired();
      this.dropped(event.code);
    };
  }

  /** Silence for two heartbeats and a bit: the server or the network is gone. */
  private arm(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.dropped(null), this.heartbeatMs * 2 + 1000);
  }

  private dropped(closeCode: number | null, delay?: number): void {
    if (this.stopped) return;
    this.closeCurrent();
    this.setOnline(false);
    const wait = delay ?? reconnectDelayMs(closeCode, this.attempt);
    if (delay === undefined && closeCode !== SERVICE_RESTART) this.attempt++;
    this.retryTimer = setTimeout(() => this.open(), wait);
  }

  private setOnline(online: boolean): void {
    if (this.online === online) return;
    this.online = online;
    this.onOnline(online);
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.watchdog) clearTimeout(this.watchdog);
    this.retryTimer = null;
    this.watchdog = null;
  }
}
