import { REALTIME_PATH, serverFrame, type ServerFrame } from '@parley/protocol';
import WebSocket from 'ws';

/** A push-channel client for tests: every frame it gets, parsed by the protocol's schema. */
export class PushClient {
  readonly frames: ServerFrame[] = [];
  closed: { code: number } | null = null;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      this.frames.push(serverFrame.parse(JSON.parse(String(raw))));
      this.wakeAll();
    });
    ws.on('close', (code) => {
      this.closed = { code };
      this.wakeAll();
    });
  }

  /** `autoPong` false: a client that never answers the server's pings (a dead one). */
  static async open(
    baseUrl: string,
    hello?: { token: string; last_event_id?: number },
    opts: { autoPong?: boolean } = {},
  ) {
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + REALTIME_PATH, {
      autoPong: opts.autoPong ?? true,
    });
    const client = new PushClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    if (hello) ws.send(JSON.stringify({ last_event_id: 0, ...hello }));
    return client;
  }

  private wakeAll() {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
  }

  /** Waits until `check` answers something, or fails after `ms`. */
  async until<T>(check: () => T | undefined, what: string, ms = 5000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = check();
      if (found !== undefined) return found;
      if (Date.now() > deadline) {
        throw new Error(`no ${what} within ${ms} ms; frames: ${JSON.stringify(this.frames)}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitFor(kind: ServerFrame['kind']): Promise<ServerFrame> {
    return this.until(() => this.frames.find((f) => f.kind === kind), `${kind} frame`);
  }

  /** The event frames so far, in order. */
  events() {
    return this.frames.filter(
      (f): f is Extract<ServerFrame, { kind: 'event' }> => f.kind === 'event',
    );
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  waitForEvent(type: string, match: (data: any) => boolean = () => true) {
    return this.until(
      () => this.events().find((f) => f.type === type && match(f.data)),
      `${type} event`,
    );
  }

  waitForClose(ms = 5000) {
    return this.until(() => this.closed ?? undefined, 'close', ms);
  }

  close() {
    this.ws.close();
  }
}
