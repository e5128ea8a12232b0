import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The release before this one: the commit this build's rolling upgrade starts from (bump it
 * at each release). The test builds its server once and keeps it in a gitignored cache.
 */
export const PREVIOUS_RELEASE = '8168485345a92d7dc538d9bad27eb2e56d470cdd';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CACHE = path.join(ROOT, 'apps/server/.cache/previous-release');

/**
 * The previous release's built server (its dist/main.js): the commit's files from git (a fresh
 * clone has the history), this checkout's node_modules linked in but the release's own
 * protocol package, and only the protocol and the server compiled (no type check: it was
 * checked when released). The web console is this checkout's (not what is upgraded here).
 */
export function previousReleaseMain(commit = PREVIOUS_RELEASE): string {
  const dir = path.join(CACHE, commit);
  const main = path.join(dir, 'apps/server/dist/main.js');
  // A cache made before the protocol's link was relative points into a folder since renamed.
  const protocol = path.join(dir, 'node_modules/@parley/protocol/package.json');
  if (existsSync(main) && existsSync(protocol)) return main;
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${commit} | tar -x -C "${work}"`]);
  const modules = path.join(work, 'node_modules');
  mkdirSync(path.join(modules, '@parley'), { recursive: true });
  for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (name === '@parley' || name === '.bin') continue;
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name));
  }
  // Relative: the folder is renamed once built (an absolute link would point at its old name,
  // and Node would go on up to this checkout's protocol).
  symlinkSync('../../packages/protocol', path.join(modules, '@parley/protocol'));
  mkdirSync(path.join(work, 'apps/web'), { recursive: true });
  symlinkSync(path.join(ROOT, 'apps/web/dist'), path.join(work, 'apps/web/dist'));
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  for (const project of ['packages/protocol/tsconfig.json', 'apps/server/tsconfig.build.json']) {
    execFileSync(process.execPath, [tsc, '--noCheck', '-p', path.join(work, project)], {
      stdio: 'pipe',
    });
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  return main;
}
