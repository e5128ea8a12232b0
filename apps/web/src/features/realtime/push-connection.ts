import {
  PUSH_CLOSE,
  pushEvent,
  REALTIME_PATH,
  serverFrame,
  type PushEvent,
  type ServerFrame,
} from '@parley/protocol';

export interface PushHandlers {
  /** Connected and resumed: missed events follow. `fresh`: nothing to resume from. */
  onReady(lastEventId: number, fresh: boolean): void;
  /** The resume point was too old: refetch everything. */
  onReset(lastEventId: number): void;
  onEvent(event: PushEvent): void;
  /** The socket is up (true) or down, reconnecting (false). */
  onOnline(online: boolean): void;
  /** 400002: the token is no longer valid; no reconnect. */
  onExpired(): void;
}

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
  if (closeCode === PUSH_CLOSE.SERVICE_RESTART) return Math.round(random() * 200);
  return backoffMs(attempt, random);
}

export function realtimeUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${REALTIME_PATH}`;
}

/**
 * One push socket for the signed-in console: says hello with the token and the last event id
 * handled, reconnects with back-off when it drops or falls silent (no frame for two
 * heartbeats), and resumes from where it was.
 */
export class PushConnection {
  private ws: WebSocket | null = null;
  private lastEventId = 0;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private heartbeatMs = 30_000;
  private stopped = false;
  private online = false;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly handlers: PushHandlers,
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
    this.ws?.close();
    this.ws = null;
  }

  private readonly reconnectNow = () => {
    if (this.stopped || this.online) return;
    this.attempt = 0;
    this.clearTimers();
    this.ws?.close();
    this.open();
  };

  private open(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ token: this.token, last_event_id: this.lastEventId }));
      this.arm();
    };
    ws.onmessage = (msg) => {
      if (ws !== this.ws) return;
      let frame: ServerFrame;
      try {
        frame = serverFrame.parse(JSON.parse(String(msg.data)));
      } catch {
        return;
      }
      this.arm();
      this.handle(frame);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      this.dropped(event.code);
    };
  }

  /** The frame's payload checked against its type's schema: a malformed one is skipped. */
  private handleEvent({ id, type, data, at }: Extract<ServerFrame, { kind: 'event' }>): void {
    const event = pushEvent.safeParse({ id, type, data, at });
    if (event.success) this.handlers.onEvent(event.data);
  }

  private handle(frame: ServerFrame): void {
    switch (frame.kind) {
      case 'ready': {
        const fresh = this.lastEventId === 0;
        this.heartbeatMs = frame.heartbeat_ms;
        if (fresh) this.lastEventId = frame.last_event_id;
        this.attempt = 0;
        this.setOnline(true);
        this.handlers.onReady(frame.last_event_id, fresh);
        return;
      }
      case 'reset':
        this.heartbeatMs = frame.heartbeat_ms;
        this.lastEventId = frame.last_event_id;
        this.attempt = 0;
        this.setOnline(true);
        this.handlers.onReset(frame.last_event_id);
        return;
      case 'event':
        if (frame.id <= this.lastEventId) return; // already handled
        this.lastEventId = frame.id;
        this.handleEvent(frame);
        return;
      case 'ping':
        return;
      case 'error':
        if (frame.code === '400002') {
          this.stop();
          this.setOnline(false);
          this.handlers.onExpired();
        }
        return;
    }
  }

  /** Silence for two heartbeats and a bit: the server or the network is gone. */
  private arm(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.dropped(), this.heartbeatMs * 2 + 1000);
  }

  private dropped(closeCode: number | null = null): void {
    if (this.stopped) return;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.close();
    }
    this.setOnline(false);
    const delay = reconnectDelayMs(closeCode, this.attempt);
    if (closeCode !== PUSH_CLOSE.SERVICE_RESTART) this.attempt++;
    this.retryTimer = setTimeout(() => this.open(), delay);
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
