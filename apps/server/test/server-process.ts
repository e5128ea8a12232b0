import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { runCli } from '../src/cli/run.js';
import { loadConfig } from '../src/config.js';
import { TEST_PG_POOL_MAX } from './helper.js';

/** The built server (`npm start`), as an operator runs it. */
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Sends the signal; answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `main`: another build's dist/main.js (the previous release: previous-release.ts). */
export async function startServer(
  env: Record<string, string>,
  main = MAIN,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // No balancer to wait for: SIGTERM refuses and closes at once (a test says otherwise).
      PARLEY_SHUTDOWN_GRACE_MS: '0',
      PARLEY_PG_POOL_MAX: String(TEST_PG_POOL_MAX),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const base = await new Promise<string>((resolve, reject) => {
    // A first start migrates an empty database: 20 s under a loaded machine.
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 45_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Parley listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
    void exited.then((code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return {
    base,
    child,
    output: () => out,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The admin CLI, in this process, on the server's environment. */
export async function cli(env: Record<string, string>, ...argv: string[]) {
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const status = await runCli(argv, io, loadConfig({ ...env }));
  return { status, output: lines.join('\n') };
}

export async function cliOk(env: Record<string, string>, ...argv: string[]) {
  const { status, output } = await cli(env, ...argv);
  expect(status, output).toBe(0);
  return output;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Envelope = { code: string; msg: string; data: any };

/** POSTs a call; a network failure or an answer without an envelope (a 503) throws. */
export async function post(base: string, urlPath: string, body: unknown, token?: string) {
  const res = await fetch(base + urlPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text}`);
  return JSON.parse(text) as Envelope;
}

/** The operator sends a text in the chat; answers the envelope (throws when refused by HTTP). */
export function sendText(
  base: string,
  chat: { token: string; phone: string; customer: string },
  content: string,
  clientMsgId: string,
) {
  return post(
    base,
    '/v1/seat/chat/message',
    {
      send_phone: chat.phone,
      receiver_phone: chat.customer,
      type: 'text',
      content,
      client_msg_id: clientMsgId,
    },
    chat.token,
  );
}

/** A seat with one phone account and a chat with a customer, made through the CLI and the API. */
export async function seatWithChat(
  env: Record<string, string>,
  base: string,
  name: string,
  phone: string,
  customer: string,
) {
  await cliOk(env, 'seat:create', name, '--password', 'correct-horse-1');
  await cliOk(env, 'account:add', phone);
  await cliOk(env, 'account:assign', phone, name);
  return signInWithChat(base, name, phone, customer);
}

/** An administrator made with one CLI run, signed in: for set-ups of many seats (admin calls). */
export async function adminOf(env: Record<string, string>, base: string): Promise<string> {
  await cliOk(env, 'admin:create', 'test-admin', '--password', 'correct-horse-admin');
  const login = await post(base, '/v1/admin/login', {
    account: 'test-admin',
    password: 'correct-horse-admin',
  });
  expect(login.code, JSON.stringify(login)).toBe('000000');
  return login.data.token as string;
}

/**
 * seatWithChat through the admin API: no CLI process per seat (three each took a second of a
 * roll's set-up apiece).
 */
export async function seatWithChatByAdmin(
  base: string,
  adminToken: string,
  name: string,
  phone: string,
  customer: string,
) {
  const seat = await post(
    base,
    '/v1/admin/seats/create',
    { account: name, password: 'correct-horse-1' },
    adminToken,
  );
  expect(seat.code, JSON.stringify(seat)).toBe('000000');
  const account = await post(
    base,
    '/v1/admin/accounts/create',
    { send_phone: phone, seat_id: seat.data.seat_id },
    adminToken,
  );
  expect(account.code, JSON.stringify(account)).toBe('000000');
  return signInWithChat(base, name, phone, customer);
}

async function signInWithChat(base: string, name: string, phone: string, customer: string) {
  const login = await post(base, '/v1/seat/chat/login', {
    account: name,
    password: 'correct-horse-1',
  });
  expect(login.code).toBe('000000');
  const token = login.data.token as string;
  const added = await post(
    base,
    '/v1/seat/chat/addSession',
    {
      send_phone: phone,
      receiver_phone: customer,
      greeting: 'Hello',
      client_msg_id: `${name}-add`,
    },
    token,
  );
  expect(added.code, JSON.stringify(added)).toBe('000000');
  return { token, phone, customer };
}
