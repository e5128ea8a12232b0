import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';

/**
 * The machine's PostgreSQL programs (Debian's postgresql package): the newest version's bin.
 * Missing, the test fails here and says what to install; it is never skipped.
 */
export function postgresBin(): string {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT)
        .filter((v) => existsSync(path.join(PG_ROOT, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      `no initdb under ${PG_ROOT}/<version>/bin: this test starts a PostgreSQL cluster of its ` +
        'own; install the PostgreSQL server (apt-get install postgresql)',
    );
  }
  return path.join(PG_ROOT, versions[0]!, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A PostgreSQL cluster of the test's own (initdb, pg_ctl) in a temp directory, on a free
 * loopback port: a test that stops, starts or cuts the database off owns it, and the machine's
 * shared PostgreSQL is never touched. PostgreSQL refuses to run as root: as root its programs
 * run as the `postgres` user, which owns the directory.
 */
export class PrivatePostgres {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'parley-pg-'));
  readonly data = path.join(this.dir, 'data');
  private readonly bin = postgresBin();
  private readonly asRoot = userInfo().uid === 0;
  port = 0;

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private pgProgram(program: string, args: string[]) {
    const file = path.join(this.bin, program);
    return this.asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args);
  }

  /** initdb, then start; answers once it takes connections. */
  async create(): Promise<this> {
    if (this.asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(this.dir, Number(stdout.trim()), Number(gid.trim()));
    }
    await this.pgProgram('initdb', [
      '-D',
      this.data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    this.port = await freePort();
    await this.start();
    return this;
  }

  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      `-k ${this.dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c max_connections=200',
    ].join(' ');
    await this.pgProgram('pg_ctl', [
      '-D',
      this.data,
      '-o',
      options,
      '-l',
      path.join(this.dir, 'log'),
      '-w',
      '-t',
      '30',
      'start',
    ]);
  }

  /** `pg_ctl stop -m fast`: every session is ended, as an operator's restart does. */
  async stop(): Promise<void> {
    await this.pgProgram('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'stop']);
  }

  /** Runs `text` as the superuser on `database`. */
  async query<R extends pg.QueryResultRow>(database: string, text: string): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return (await client.query<R>(text)).rows;
    } finally {
      await client.end();
    }
  }

  async destroy(): Promise<void> {
    await this.pgProgram('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(
      () => undefined,
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
