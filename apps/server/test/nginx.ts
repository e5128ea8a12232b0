import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './loopback.js';

/** The nginx configuration Parley ships (compose.yaml mounts it), read as is. */
export const SHIPPED_NGINX_CONF = fileURLToPath(
  new URL('../../../deploy/nginx.conf', import.meta.url),
);
/** Debian's nginx (`.ci/run` installs it where missing); NGINX names another binary. */
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

/**
 * deploy/nginx.conf with only what docs/deploy.md tells an operator to change: the instances'
 * addresses (`parley-1:8080`, `parley-2:8080`) and the port nginx listens on. Throws when the
 * shipped file changed shape so that a substitution would miss (then change this, and the docs).
 */
export function nginxConfFor(conf: string, upstreams: string[], listen: string): string {
  let servers = 0;
  let listens = 0;
  const out = conf
    .replace(
      /^(\s*server )parley-(\d+):8080( |;)/gm,
      (_m, head: string, n: string, tail: string) => {
        servers += 1;
        const address = upstreams[Number(n) - 1];
        if (!address) throw new Error(`deploy/nginx.conf names parley-${n}: no address for it`);
        return `${head}${address}${tail}`;
      },
    )
    .replace(/^(\s*listen )8080;$/m, (_m, head: string) => {
      listens += 1;
      return `${head}${listen};`;
    });
  const allListens = (out.match(/^\s*listen /gm) ?? []).length;
  if (servers !== upstreams.length || listens !== 1 || allListens !== 1 || out.includes(':8080')) {
    throw new Error(
      `deploy/nginx.conf changed shape: ${servers} upstream servers (want ${upstreams.length}), ${listens} listen`,
    );
  }
  return out;
}

export interface Nginx {
  base: string;
  /** nginx's error log so far (upstream failures, with the instance and why). */
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx as a child process, on its own prefix in a temp dir and a free loopback port,
 * in front of `upstreams` with deploy/nginx.conf as shipped (in the `http` block nginx.conf's
 * `conf.d` include gives it in the image).
 */
export async function startNginx(upstreams: string[]): Promise<Nginx> {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-nginx-'));
  const port = await freePort();
  const site = nginxConfFor(
    readFileSync(SHIPPED_NGINX_CONF, 'utf8'),
    upstreams,
    `127.0.0.1:${port}`,
  );
  writeFileSync(path.join(dir, 'parley.conf'), site);
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, t));
  // Debian's build puts its temp dirs under /var/lib/nginx: here, in the prefix. As root (CI),
  // the workers would switch to `nobody`, who cannot write there.
  const root = process.getuid?.() === 0 ? 'user root;\n' : '';
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${root}worker_processes 2;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/parley.conf;
}
`,
  );
  const errorLog = path.join(dir, 'error.log');
  const child: ChildProcess = spawn(
    NGINX,
    [
      '-p',
      dir,
      '-c',
      path.join(dir, 'nginx.conf'),
      '-e',
      errorLog,
      '-g',
      `daemon off; pid ${dir}/nginx.pid; error_log ${errorLog} warn;`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const readLog = () => {
    try {
      return readFileSync(errorLog, 'utf8');
    } catch {
      return '';
    }
  };
  // Up once it answers (a 502 while no instance listens yet is an answer too).
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}${readLog()}`);
    const up = await fetch(`${base}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (i > 100) throw new Error(`nginx did not answer: ${stderr}${readLog()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    base,
    errorLog: readLog,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
