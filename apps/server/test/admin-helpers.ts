import {
  ADMIN_CALLS,
  ADMIN_REALTIME_PATH,
  adminServerFrame,
  type AdminCallInput,
  type AdminCallPath,
  type AdminCallResponse,
  type AdminServerFrame,
} from '@parley/protocol';
import WebSocket from 'ws';
import type { Answer, TestApp } from './helper.js';

export const ADMIN_PASSWORD = 'admin-password-1';

/** POSTs an admin call; a success answer must match the protocol's response schema. */
export async function adminCall<P extends AdminCallPath>(
  t: TestApp,
  path: P,
  body: AdminCallInput<P> | Record<string, unknown>,
  token?: string | null,
): Promise<Answer<AdminCallResponse<P>>> {
  const answer = await t.raw({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: JSON.stringify(body),
  });
  if (answer.code === '000000') {
    const parsed = ADMIN_CALLS[path].response.safeParse(answer.data);
    if (!parsed.success)
      throw new Error(`${path} answer breaks the protocol: ${parsed.error.message}`);
  }
  return answer as Answer<AdminCallResponse<P>>;
}

/** An administrator created as the CLI does, and signed in: its token. */
export async function createAdmin(t: TestApp, account: string): Promise<string> {
  await t.services.adminAuth.create(
    { account, password: ADMIN_PASSWORD },
    { type: 'cli', name: 'cli' },
  );
  const login = await adminCall(t, '/v1/admin/login', { account, password: ADMIN_PASSWORD });
  if (login.code !== '000000') throw new Error(`admin login failed: ${login.raw}`);
  return login.data.token;
}

/** The admin push channel as a console holds it: every frame parsed by the protocol. */
export class AdminPushClient {
  readonly frames: AdminServerFrame[] = [];
  closed: { code: number } | null = null;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      this.frames.push(adminServerFrame.parse(JSON.parse(String(raw))));
      this.wake();
    });
    ws.on('close', (code) => {
      this.closed = { code };
      this.wake();
    });
  }

  /** `autoPong` false: a console that never answers the server's pings (a dead one). */
  static async open(
    baseUrl: string,
    hello: { token: string; tz_offset_min?: number },
    options: { autoPong?: boolean } = {},
  ) {
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + ADMIN_REALTIME_PATH, options);
    const client = new AdminPushClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify(hello));
    return client;
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
  }

  async until<T>(check: () => T | undefined, what: string, ms = 8000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = check();
      if (found !== undefined) return found;
      if (Date.now() > deadline) {
        throw new Error(
          `no ${what} within ${ms} ms; frames: ${JSON.stringify(this.frames).slice(-2000)}`,
        );
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

  /** The newest overview pushed that matches. */
  overview(match: (o: Extract<AdminServerFrame, { type: 'admin.overview' }>['data']) => boolean) {
    return this.until(() => {
      for (let i = this.frames.length - 1; i >= 0; i--) {
        const f = this.frames[i]!;
        if (f.kind === 'event' && f.type === 'admin.overview' && match(f.data)) return f.data;
      }
      return undefined;
    }, 'matching admin.overview');
  }

  waitForKind(kind: AdminServerFrame['kind']) {
    return this.until(() => this.frames.find((f) => f.kind === kind), `${kind} frame`);
  }

  waitForClose(ms = 5000) {
    return this.until(() => this.closed ?? undefined, 'close', ms);
  }

  close() {
    this.ws.close();
  }
}
