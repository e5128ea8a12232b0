import {
  ADMIN_PUSH_CLOSE,
  ADMIN_REALTIME_PATH,
  ERROR_CODES,
  adminServerFrame,
  type AdminChangeScope,
  type AdminClientHello,
  type AdminServerFrame,
  type Overview,
} from '@parley/protocol';

export interface AdminPushHandlers {
  /** Connected (again): the server sends an overview next; lists may have changed meanwhile. */
  onReady(): void;
  onOverview(overview: Overview): void;
  onChanged(scopes: AdminChangeScope[]): void;
  onOnline(online: boolean): void;
  /** The admin token ended (400002, close 4001): no reconnect. */
  onExpired(): void;
}

/** Reconnect delay: exponential from 500 ms to 30 s with jitter (as the seat's socket). */
export function adminBackoffMs(attempt: number, random = Math.random): number {
  const cap = Math.min(30_000, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

export function adminRealtimeUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${ADMIN_REALTIME_PATH}`;
}

/** Parses one frame; null for anything the protocol does not describe (skipped). */
export function parseAdminFrame(raw: string): AdminServerFrame | null {
  try {
    const parsed = adminServerFrame.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The admin console's push socket: hello with the admin token and the local UTC offset, then
 * overview snapshots and "lists changed" hints. No replay: on each (re)connect the console
 * refetches what it shows. Reconnects with back-off when it drops or falls silent.
 */
export class AdminPushConnection {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private heartbeatMs = 30_000;
  private stopped = false;
  private online = false;

  constructor(
    private readonly url: string,
    private readonly hello: AdminClientHello,
    private readonly handlers: AdminPushHandlers,
  ) {}

  start(): void {
    this.stopped = false;
    this.open();
    window.addEventListener('online', this.reconnectNow);
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('online', this.reconnectNow);
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.close();
    }
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
      ws.send(JSON.stringify(this.hello));
      this.arm();
    };
    ws.onmessage = (msg) => {
      if (ws !== this.ws) return;
      const frame = parseAdminFrame(String(msg.data));
      if (!frame) return;
      this.arm();
      this.handle(frame);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      if (event.code === ADMIN_PUSH_CLOSE.TOKEN_EXPIRED) return this.expired();
      this.dropped(event.code);
    };
  }

  private handle(frame: AdminServerFrame): void {
    switch (frame.kind) {
      case 'ready':
        this.heartbeatMs = frame.heartbeat_ms;
        this.attempt = 0;
        this.setOnline(true);
        this.handlers.onReady();
        return;
      case 'event':
        if (frame.type === 'admin.overview') this.handlers.onOverview(frame.data);
        else this.handlers.onChanged(frame.data.scopes);
        return;
      case 'ping':
        return;
      case 'error':
        if (frame.code === ERROR_CODES.TOKEN_EXPIRED) this.expired();
        return;
    }
  }

  private expired(): void {
    this.stop();
    this.setOnline(false);
    this.handlers.onExpired();
  }

  /** Silence for two heartbeats and a bit: the server or the network is gone. */
  private arm(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.dropped(null), this.heartbeatMs * 2 + 1000);
  }

  private dropped(closeCode: number | null, delay?: number): void {
    if (this.stopped) return;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.close();
    }
    this.setOnline(false);
    const wait =
      delay ??
      (closeCode === ADMIN_PUSH_CLOSE.SERVICE_RESTART
        ? Math.round(Math.random() * 200)
        : adminBackoffMs(this.attempt++));
    this.retryTimer = setTimeout(() => this.open(), wait);
  }

  private setOnline(online: boolean): void {
    if (this.online === online) return;
    this.online = online;
    this.handlers.onOnline(online);
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.watchdog) clearTimeout(this.watchdog);
    this.retryTimer = null;
    this.watchdog = null;
  }
}
