import {
  pushEvent,
  REALTIME_PATH,
  serverFrame,
  type PushEvent,
  type ServerFrame,
} from '@parley/protocol';
import { ReconnectingSocket, socketUrl } from '../../lib/reconnecting-socket';

export { backoffMs, reconnectDelayMs } from '../../lib/reconnecting-socket';

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

export function realtimeUrl(location: { protocol: string; host: string }): string {
  return socketUrl(location, REALTIME_PATH);
}

/**
 * One push socket for the signed-in console: says hello with the token and the last event id
 * handled, and on each reconnect resumes from where it was.
 */
export class PushConnection extends ReconnectingSocket<ServerFrame> {
  private lastEventId = 0;

  constructor(
    url: string,
    private readonly token: string,
    private readonly handlers: PushHandlers,
  ) {
    super(url, handlers.onOnline, handlers.onExpired);
  }

  protected hello() {
    return { token: this.token, last_event_id: this.lastEventId };
  }

  protected parse(raw: string): ServerFrame | null {
    try {
      return serverFrame.parse(JSON.parse(raw));
    } catch {
      return null;
    }
  }

  /** The frame's payload checked against its type's schema: a malformed one is skipped. */
  private handleEvent({ id, type, data, at }: Extract<ServerFrame, { kind: 'event' }>): void {
    const event = pushEvent.safeParse({ id, type, data, at });
    if (event.success) this.handlers.onEvent(event.data);
  }

  protected handle(frame: ServerFrame): void {
    switch (frame.kind) {
      case 'ready': {
        const fresh = this.lastEventId === 0;
        if (fresh) this.lastEventId = frame.last_event_id;
        this.connected(frame.heartbeat_ms);
        this.handlers.onReady(frame.last_event_id, fresh);
        return;
      }
      case 'reset':
        this.lastEventId = frame.last_event_id;
        this.connected(frame.heartbeat_ms);
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
        if (frame.code === '400002') this.expired();
        return;
    }
  }
}
