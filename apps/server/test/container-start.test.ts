import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from './loopback.js';

// The Dockerfile's runtime stage, run on this machine: its environment, its start command
// (CMD) from the repository root (the image's WORKDIR holds the same layout), and its
// HEALTHCHECK. CI also builds and starts the image itself (scripts/container/check.sh); this
// keeps the start command and the health check true wherever no container can run.
// Needs `npm run build` (npm test builds first); the embedded database only.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface RuntimeStage {
  env: Record<string, string>;
  workdir: string;
  cmd: string[];
  healthcheck: string[];
}

/** The last stage's ENV, WORKDIR, CMD and HEALTHCHECK (exec forms), lines joined at `\`. */
function runtimeStage(dockerfile: string): RuntimeStage {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const last = lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  const stage: RuntimeStage = { env: {}, workdir: '/', cmd: [], healthcheck: [] };
  for (const line of lines.slice(last + 1)) {
    const [, instruction, rest] = /^(\S+)\s+(.*)$/.exec(line)!;
    switch (instruction!.toUpperCase()) {
      case 'ENV':
        for (const [, key, value] of rest!.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S+)/g)) {
          stage.env[key!] = value!;
        }
        break;
      case 'WORKDIR':
        stage.workdir = rest!;
        break;
      case 'CMD':
        stage.cmd = JSON.parse(rest!) as string[];
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(/\bCMD\s+(\[.*\])$/.exec(rest!)![1]!) as string[];
        break;
    }
  }
  return stage;
}

/** The image's commands name `node` from its PATH: here, the Node.js running the tests. */
const resolveNode = (argv: string[]) =>
  argv[0] === 'node' ? [process.execPath, ...argv.slice(1)] : argv;

describe("the container image's start command and health check, on the host", () => {
  it('starts the server on the data volume and answers its HEALTHCHECK', async () => {
    const stage = runtimeStage(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
    expect(stage.workdir).toBe('/app');
    expect(stage.cmd).toEqual(['node', 'apps/server/dist/main.js']);
    expect(stage.env.PARLEY_DATA_DIR).toBe('/data');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-container-'));
    const port = await freePort();
    // The image's environment, with the volume at a temp dir and the port free here.
    const env = {
      PATH: process.env.PATH ?? '',
      ...stage.env,
      PARLEY_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
    };
    const [command, ...args] = resolveNode(stage.cmd);
    const server = spawn(command!, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    server.stdout.on('data', (d: Buffer) => (log += d.toString()));
    server.stderr.on('data', (d: Buffer) => (log += d.toString()));
    const [hc, ...hcArgs] = resolveNode(stage.healthcheck);
    const healthy = () => spawnSync(hc!, hcArgs, { cwd: ROOT, env, timeout: 5_000 }).status === 0;
    try {
      // Before the server listens, the health check fails (it is a real check).
      expect(healthy()).toBe(false);
      let passed = false;
      for (let i = 0; i < 60 && !passed && server.exitCode === null; i++) {
        await sleep(250);
        passed = healthy();
      }
      expect(passed, `the HEALTHCHECK never passed:\n${log}`).toBe(true);
      // JSON log lines (LOG_FORMAT=json), and the SQLite file on the volume.
      expect(log.split('\n').find((l) => l.startsWith('{'))).toBeDefined();
      expect(existsSync(path.join(dataDir, 'parley.db'))).toBe(true);
      const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
