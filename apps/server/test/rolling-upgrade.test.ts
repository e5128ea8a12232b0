import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { nginxConfFor, SHIPPED_NGINX_CONF } from './nginx.js';
import { previousReleaseMain } from './previous-release.js';
import { describeFigures, RollingCluster, type Figures } from './rolling-cluster.js';

/**
 * Zero-downtime rolling restart and upgrade (docs/deploy.md, "Stopping and rolling restarts"),
 * from outside: two built instances on PostgreSQL and Redis behind deploy/nginx.conf as shipped
 * (only the addresses and the port substituted), operators reading, sending with client_msg_id
 * and holding push sockets that resume, through nginx, while both instances are rolled one
 * after the other. The PostgreSQL project only (several instances), like instances.test.ts.
 * bench/rolling-restart.mjs prints the same figures for longer runs.
 */
const ADMIN_URL = process.env.PARLEY_TEST_DATABASE_URL!;
const REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const OPERATORS = Number(process.env.PARLEY_ROLL_OPERATORS ?? 12);
/** Load before each instance is rolled (the bench makes it longer). */
const WARM_MS = Number(process.env.PARLEY_ROLL_WARM_MS ?? 2_000);

const warm = () => new Promise((r) => setTimeout(r, WARM_MS));

let cluster: RollingCluster | null = null;
afterEach(async () => {
  await cluster?.stop();
  cluster = null;
});

function expectNoLoss(f: Figures) {
  expect(f.acked).toBeGreaterThan(OPERATORS * 5);
  expect({ lost: f.lost, doubled: f.doubled }).toEqual({ lost: 0, doubled: 0 });
  expect({ pushMissed: f.pushMissed, pushResets: f.pushResets }).toEqual({
    pushMissed: 0,
    pushResets: 0,
  });
  // Every console came back after each instance it was on closed.
  expect(f.resumes).toBeGreaterThanOrEqual(OPERATORS);
}

async function rollBoth(from: string | undefined, label: string) {
  cluster = new RollingCluster({
    adminUrl: ADMIN_URL,
    redisUrl: REDIS_URL,
    operators: OPERATORS,
    fromMain: from,
  });
  await cluster.start();
  await cluster.startLoad();
  await warm();
  await cluster.roll(0);
  await warm();
  await cluster.roll(1);
  const figures = await cluster.finish();
  console.log(describeFigures(label, figures));
  expect(figures.failures).toEqual([]);
  expectNoLoss(figures);
  await cluster.stop();
  expect(cluster.exits).toEqual([0, 0, 0, 0]);
  cluster = null;
}

describe('deploy/nginx.conf, substituted', () => {
  it('changes only the addresses and the port, and fails when the shipped file changes shape', () => {
    const shipped = readFileSync(SHIPPED_NGINX_CONF, 'utf8');
    const conf = nginxConfFor(shipped, ['127.0.0.1:1001', '127.0.0.1:1002'], '127.0.0.1:1000');
    expect(
      conf.replace(
        /127\.0\.0\.1:100([012])/g,
        (_m, n: string) => ['8080', 'parley-1:8080', 'parley-2:8080'][Number(n)]!,
      ),
    ).toBe(shipped);
    expect(() =>
      nginxConfFor(shipped.replace('parley-2:8080', 'parley-b:8080'), ['a:1', 'b:2'], 'x:3'),
    ).toThrow(/changed shape/);
    expect(() =>
      nginxConfFor(shipped.replace('listen 8080;', 'listen 80;'), ['a:1', 'b:2'], 'x:3'),
    ).toThrow(/changed shape/);
  });
});

describe('a rolling restart through nginx, on PostgreSQL and Redis', () => {
  it('fails no request, loses or doubles no send, misses no push event; every instance exits 0', async () => {
    await rollBoth(undefined, 'rolling restart');
  }, 240_000);

  it('upgrade: from the previous release to this build; the old instance serves on the migrated schema until stopped', async () => {
    // Built once and cached (apps/server/.cache): the first run compiles the release's server.
    const previous = previousReleaseMain();
    await rollBoth(previous, 'rolling upgrade');
  }, 360_000);

  it('an instance killed mid-roll: nginx routes around it; only requests in flight on it may fail', async () => {
    cluster = new RollingCluster({
      adminUrl: ADMIN_URL,
      redisUrl: REDIS_URL,
      operators: OPERATORS,
    });
    await cluster.start();
    await cluster.startLoad();
    await warm();
    await cluster.roll(0);
    await warm();
    const killedAt = cluster.elapsed();
    await cluster.roll(1, undefined, 'SIGKILL');
    const figures = await cluster.finish();
    console.log(describeFigures('SIGKILL mid-roll', figures));
    for (const f of figures.failures) console.log(`  failed: ${JSON.stringify(f)}`);
    // Every call of this load is safe to send twice, so nginx passes those in flight on the
    // killed instance to the other one; a failure would be one of them, in the second after
    // the kill (printed above), answered as nginx's 502.
    for (const f of figures.failures) {
      expect(f.kind).toBe('http');
      expect(Math.abs(f.at - killedAt)).toBeLessThan(2_000);
    }
    expectNoLoss(figures);
    await cluster.stop();
    // The killed instance has no exit code (null: ended by the signal).
    expect(cluster.exits).toEqual([0, null, 0, 0]);
    cluster = null;
  }, 240_000);
});
