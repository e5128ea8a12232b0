import {
  pushEvent,
  REALTIME_PATH,
  serverFrame,
  type PushEvent,
  type ServerFrame,
  type TeamPresence,
} from '@parley/protocol';
import { ReconnectingSocket, socketUrl } from '../../lib/reconnecting-socket';

export { backoffMs, reconnectDelayMs } from '../../lib/reconnecting-socket';

export interface PushHandlers {
  /** Connected and resumed: missed events follow. `fresh`: nothing to resume from. */
  onReady(lastEventId: number, fresh: boolean): void;
  /** The resume point was too old: refetch everything. */
  onReset(lastEventId: number): void;
  onEvent(event: PushEvent): void;
  /** Who is looking at a team chat: ephemeral, outside the numbered events. */
  onPresence?(presence: TeamPresence): void;
  /** The socket is up (true) or down, reconnecting (false). */
  onOnline(online: boolean): void;
  /** 400002: the token is no longer valid; no reconnect. */
  onExpired(): void;
}

/**
 * What the console does with event `id`, having handled every event up to `lastEventId`. A
 * seat's events are numbered 1, 2, 3... without holes (the server's per-seat counter), so an id
 * above the next one means events were not received (issue 32):
 * - `old`: handled already; `apply`: the next one.
 * - `resume`: a gap. The console resumes from `lastEventId` on a new socket at once and the
 *   server replays the missing events from its log, in order, then the rest (or answers
 *   `reset` when it no longer keeps them: the console refetches). Chosen over refetching the
 *   lists and chats: each missed event is applied once, in order, as if it had come (a missed
 *   customer message still raises its notification), for one round trip and the missed events
 *   only, not every list and chat the console holds; and no reload, no error.
 * - `refetch`: the same gap right after resuming from `lastEventId` (`resumedFrom`): the server
 *   does not send those events (a type it no longer has); refetch what the console shows and go
 *   on, instead of resuming again and again.
 */
export type EventStep = 'old' | 'apply' | 'resume' | 'refetch';

export function eventStep(lastEventId: number, id: number, resumedFrom: number | null): EventStep {
  if (id <= lastEventId) return 'old';
  if (id === lastEventId + 1) return 'apply';
  return resumedFrom === lastEventId ? 'refetch' : 'resume';
}

/** An event frame the protocol's schema cannot read (a type newer than this console). */
interface UnreadableEvent {
  kind: 'unreadable';
  id: number;
}

/** An event this console cannot read still takes its number: it is no gap. */
function unreadableEvent(json: unknown): UnreadableEvent | null {
  if (typeof json !== 'object' || json === null) return null;
  const { kind, id } = json as { kind?: unknown; id?: unknown };
  return kind === 'event' && typeof id === 'number' && Number.isSafeInteger(id) && id > 0
    ? { kind: 'unreadable', id }
    : null;
}

export function realtimeUrl(location: { protocol: string; host: string }): string {
  return socketUrl(location, REALTIME_PATH);
}

/**
 * One push socket for the signed-in console: says hello with the token and the last event id
 * handled, and on each reconnect resumes from where it was; an event past a gap makes it
 * resume at once from the last one before the gap (`eventStep`).
 */
export class PushConnection extends ReconnectingSocket<ServerFrame | UnreadableEvent> {
  private lastEventId = 0;
  /** The last event id this console resumed from to fill a gap. */
  private resumedFrom: number | null = null;

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

  protected parse(raw: string): ServerFrame | UnreadableEvent | null {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return null;
    }
    const frame = serverFrame.safeParse(json);
    return frame.success ? frame.data : unreadableEvent(json);
  }

  /** The frame's payload checked against its type's schema: a malformed one is skipped. */
  private handleEvent({ id, type, data, at }: Extract<ServerFrame, { kind: 'event' }>): void {
    const event = pushEvent.safeParse({ id, type, data, at });
    if (event.success) this.handlers.onEvent(event.data);
  }

  protected handle(frame: ServerFrame | UnreadableEvent): void {
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
      case 'unreadable': {
        const step = eventStep(this.lastEventId, frame.id, this.resumedFrom);
        if (step === 'old') return;
        if (step === 'resume') {
          this.resumedFrom = this.lastEventId;
          this.reopen();
          return;
        }
        if (step === 'refetch') this.handlers.onReset(frame.id);
        this.lastEventId = frame.id;
        if (frame.kind === 'event') this.handleEvent(frame);
        return;
      }
      case 'presence':
        this.handlers.onPresence?.(frame.data);
        return;
      case 'ping':
        return;
      case 'error':
        if (frame.code === '400002') this.expired();
        return;
    }
  }
}
