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
import { ReconnectingSocket, socketUrl } from '../../../lib/reconnecting-socket';

export interface AdminPushHandlers {
  /** Connected (again): the server sends an overview next; lists may have changed meanwhile. */
  onReady(): void;
  onOverview(overview: Overview): void;
  onChanged(scopes: AdminChangeScope[]): void;
  onOnline(online: boolean): void;
  /** The admin token ended (400002, close 4001): no reconnect. */
  onExpired(): void;
}

export function adminRealtimeUrl(location: { protocol: string; host: string }): string {
  return socketUrl(location, ADMIN_REALTIME_PATH);
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
 * refetches what it shows.
 */
export class AdminPushConnection extends ReconnectingSocket<AdminServerFrame> {
  protected override expiredCloseCode: number | null = ADMIN_PUSH_CLOSE.TOKEN_EXPIRED;

  constructor(
    url: string,
    private readonly helloFrame: AdminClientHello,
    private readonly handlers: AdminPushHandlers,
  ) {
    super(url, handlers.onOnline, handlers.onExpired);
  }

  protected hello() {
    return this.helloFrame;
  }

  protected parse(raw: string) {
    return parseAdminFrame(raw);
  }

  protected handle(frame: AdminServerFrame): void {
    switch (frame.kind) {
      case 'ready':
        this.connected(frame.heartbeat_ms);
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
}
