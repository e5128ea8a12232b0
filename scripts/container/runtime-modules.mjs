// The image carries only what the built server runs: the packages reachable from the server's
// and the protocol's `dependencies` (through each package's dependencies, the optional ones
// that are installed, and its required peers). `npm ci --omit=dev` alone also installs a
// package that is a dev dependency here and an optional peer of a web library elsewhere in the
// lockfile (TypeScript, of i18next: 23 MB), as npm keeps "dev or optional" unless both are
// omitted.
//
//   node scripts/container/runtime-modules.mjs [dir]            # removes the rest (Dockerfile)
//   node scripts/container/runtime-modules.mjs [dir] --list     # prints what is kept, removes nothing
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const root = path.resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const list = args.includes('--list');
const WORKSPACES = ['apps/server', 'packages/protocol'];

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Node's lookup of `name` from the package in `from`: node_modules dirs up to the root. */
function resolve(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return null;
  }
}

const kept = new Set();
function keep(dir) {
  if (kept.has(dir)) return;
  kept.add(dir);
  const pkg = readJson(path.join(dir, 'package.json'));
  const optionalPeers = pkg.peerDependenciesMeta ?? {};
  const names = [
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}).filter((n) => !optionalPeers[n]?.optional),
  ];
  for (const name of names) {
    const found = resolve(name, dir);
    if (found) keep(found);
    else if (!(name in (pkg.optionalDependencies ?? {})) && !(name in (pkg.peerDependencies ?? {})))
      throw new Error(`${name}, a dependency of ${path.relative(root, dir)}, is not installed`);
  }
}
for (const ws of WORKSPACES) {
  const dir = path.join(root, ws);
  kept.add(dir);
  for (const name of Object.keys(readJson(path.join(dir, 'package.json')).dependencies ?? {})) {
    const found = resolve(name, dir);
    if (!found) throw new Error(`${name}, a dependency of ${ws}, is not installed`);
    keep(found);
  }
}

/** Every installed package dir under `modules` (scoped and nested ones too). */
function* installed(modules) {
  if (!existsSync(modules)) return;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const dir = path.join(modules, entry);
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(dir)) yield path.join(dir, scoped);
    } else yield dir;
  }
}
function du(dir) {
  const s = statSync(dir, { throwIfNoEntry: false });
  if (!s || s.isSymbolicLink()) return 0;
  if (!s.isDirectory()) return s.size;
  return readdirSync(dir).reduce((n, e) => n + du(path.join(dir, e)), 0);
}

if (list) {
  for (const dir of [...kept].sort()) console.log(path.relative(root, dir));
  process.exit(0);
}
let removed = 0;
let bytes = 0;
const sweep = (modules) => {
  for (const dir of installed(modules)) {
    // A workspace's link (@parley/protocol) stays: the image has the package itself.
    if (
      statSync(dir).isDirectory() &&
      !kept.has(dir) &&
      !dir.includes(`${path.sep}@parley${path.sep}`)
    ) {
      bytes += du(dir);
      rmSync(dir, { recursive: true, force: true });
      removed += 1;
      console.log(`removed ${path.relative(root, dir)}`);
    } else sweep(path.join(dir, 'node_modules'));
  }
};
for (const dir of [root, ...WORKSPACES.map((ws) => path.join(root, ws))]) {
  sweep(path.join(dir, 'node_modules'));
}
console.log(`${removed} packages the server does not run removed (${(bytes / 1e6).toFixed(1)} MB)`);
