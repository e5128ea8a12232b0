import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SERVER_MAIN = path.join(REPO_ROOT, 'apps/server/dist/main.js');
export const SERVER_CLI = path.join(REPO_ROOT, 'apps/server/dist/cli/main.js');
/** The built CLI's commands (what cli/main.js runs) and the server's configuration loader. */
const SERVER_CLI_RUN = path.join(REPO_ROOT, 'apps/server/dist/cli/run.js');
const SERVER_CONFIG = path.join(REPO_ROOT, 'apps/server/dist/config.js');
/** The built web app; PARLEY_E2E_WEB_DIR points elsewhere (e.g. a build kept aside). */
export const WEB_DIST = process.env.PARLEY_E2E_WEB_DIR ?? path.join(REPO_ROOT, 'apps/web/dist');

const START_TIMEOUT_MS = 60_000;

/** One running seat service with its own data directory. */
export interface ParleyServer {
  url: string;
  port: number;
  dataDir: string;
  /** Runs the admin CLI against this server's data directory; resolves with its stdout. */
  cli(...args: string[]): Promise<string>;
  /** Stops the server for good and deletes its data directory. */
  stop(): Promise<void>;
  /** Stops the server process only (the server is unreachable; its data stays). */
  halt(): Promise<void>;
  /** Starts the process again on the same port and data directory, and waits until healthy. */
  resume(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      if (address === null || typeof address === 'string') {
        srv.close();
        reject(new Error('could not pick a free port'));
        return;
      }
      srv.close(() => resolve(address.port));
    });
  });
}

/** The environment of the server and the CLI: always the embedded database of `dataDir`. */
function serverEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PARLEY_DATA_DIR: dataDir, ...extra };
  // A PostgreSQL URL in the caller's environment would make all workers share one database.
  delete env.DATABASE_URL;
  return env;
}

function logTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitHealthy(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the seat service exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${logTail(logFile)}`,
      );
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) {
        const body = (await res.json()) as { status?: string };
        if (body.status === 'ok') return;
        lastError = `healthz answered ${JSON.stringify(body)}`;
      } else {
        lastError = `healthz answered HTTP ${res.status}`;
      }
    } catch (err) {
      lastError = String(err);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(
    `the seat service was not healthy within ${START_TIMEOUT_MS} ms (${lastError}):\n${logTail(logFile)}`,
  );
}

interface BuiltCli {
  runCli(
    argv: string[],
    io: { out(line: string): void; err(line: string): void },
    config: unknown,
  ): Promise<number>;
  loadConfig(env: NodeJS.ProcessEnv): unknown;
}

let cliModules: Promise<BuiltCli> | null = null;

/**
 * The built admin CLI, loaded once per worker: `cli()` runs its commands in this process
 * (the same code and arguments as `node apps/server/dist/cli/main.js`, against the same data
 * directory) instead of starting a Node process per command, which cost about a second of
 * CPU each, several times per test.
 */
function builtCli(): Promise<BuiltCli> {
  cliModules ??= Promise.all([
    import(pathToFileURL(SERVER_CLI_RUN).href) as Promise<Pick<BuiltCli, 'runCli'>>,
    import(pathToFileURL(SERVER_CONFIG).href) as Promise<Pick<BuiltCli, 'loadConfig'>>,
  ]).then(([run, config]) => ({ runCli: run.runCli, loadConfig: config.loadConfig }));
  return cliModules;
}

/**
 * Starts the real built seat service on a free port with a fresh data directory and the demo
 * workspace (PARLEY_DEMO=auto on an empty embedded database), serving the built web app.
 * `extraEnv` adds to its environment (e.g. a translation engine: support/translation.ts).
 */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<ParleyServer> {
  for (const file of [SERVER_MAIN, SERVER_CLI, path.join(WEB_DIST, 'index.html')]) {
    if (!existsSync(file)) {
      throw new Error(`${file} is missing: build first (npm run build at the repository root)`);
    }
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  let child: ChildProcess | null = null;

  const launch = async (): Promise<void> => {
    const proc = spawn(process.execPath, [SERVER_MAIN], {
      cwd: REPO_ROOT,
      env: serverEnv(dataDir, {
        PORT: String(port),
        HOST: '127.0.0.1',
        PARLEY_DEMO: 'auto',
        PARLEY_WEB_DIR: WEB_DIST,
        LOG_LEVEL: 'warn',
        ...extraEnv,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    proc.stdout?.pipe(log, { end: false });
    proc.stderr?.pipe(log, { end: false });
    await waitHealthy(url, proc, logFile);
  };

  const halt = async (): Promise<void> => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  const stop = async (): Promise<void> => {
    await halt();
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const resume = async (): Promise<void> => {
    if (child) throw new Error('the seat service is already running');
    try {
      await launch();
    } catch (err) {
      await halt().catch(() => undefined);
      throw err;
    }
  };

  try {
    await launch();
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }

  const cli = async (...args: string[]): Promise<string> => {
    const { runCli, loadConfig } = await builtCli();
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    const config = loadConfig(serverEnv(dataDir, { PARLEY_DEMO: 'off', LOG_LEVEL: 'warn' }));
    const status = await runCli(args, io, config);
    if (status !== 0) {
      throw new Error(
        `parley ${args.join(' ')} failed (exit status ${status})\n${out.join('\n')}\n${err.join('\n')}`,
      );
    }
    return out.map((l) => `${l}\n`).join('');
  };

  return { url, port, dataDir, cli, stop, halt, resume };
}
