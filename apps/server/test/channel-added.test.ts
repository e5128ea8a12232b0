import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What adding a channel costs, shown with a real one (docs/ARCHITECTURE.md, "How to add a
 * channel"): the fixture channel `pigeon` (test/fixtures/pigeon-channel/: a channel with
 * credentials and settings, its own tables and its console view) is dropped into a copy of
 * this tree. It brings its server folder (module, configuration fragment, migration, table
 * types), its web folder (its view), its contract kit and its locale keys; the test adds one
 * registry line on each side (the protocol's CHANNELS entry, the server's CHANNEL_MODULES, the
 * web's CHANNEL_VIEWS). Then the protocol builds, the server and the web typecheck, and the
 * channel contract passes for it on SQLite: no other existing file needed a change. A channel
 * that needed one more (a line in migrate.ts, a kit in the contract test, a variant in the
 * admin calls) would fail to compile or fail its contract here.
 */

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/pigeon-channel/', import.meta.url));
const NAME = 'pigeon';
const LOCALES = ['en', 'ru', 'zh-CN', 'pt'] as const;

/** The only existing files a new channel edits: one registry line per side, its locale keys. */
const ALLOWED_EDITS = [
  'apps/server/src/channels/registry.ts',
  'apps/web/src/app/channels.ts',
  'packages/protocol/src/channels.ts',
  ...LOCALES.map((l) => `apps/web/src/locales/admin/${l}/admin.json`),
].sort();
/** Where a new channel's new files go: its two folders, and its kit. */
const OWN_PLACES = [
  `apps/server/src/channels/${NAME}/`,
  `apps/web/src/features/${NAME}/`,
  `apps/server/test/channels/${NAME}.kit.ts`,
];

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The tree's files as git sees them (tracked, and new ones not ignored). */
function treeFiles(): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT })
    .toString()
    .split('\0')
    .filter((f) => f && existsSync(path.join(ROOT, f)));
}

/** The files under `dir`, relative to it. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full, base) : [path.relative(base, full)];
  });
}

/**
 * The copy's node_modules: links to this tree's packages, but the workspace's own
 * (@parley/protocol, ...) linked inside the copy, so the copy's protocol is the one built.
 */
function linkModules(copy: string) {
  const modules = path.join(ROOT, 'node_modules');
  mkdirSync(path.join(copy, 'node_modules'));
  for (const entry of readdirSync(modules)) {
    if (entry === '@parley') continue;
    symlinkSync(path.join(modules, entry), path.join(copy, 'node_modules', entry));
  }
  mkdirSync(path.join(copy, 'node_modules/@parley'));
  for (const entry of readdirSync(path.join(modules, '@parley'))) {
    const target = execFileSync('readlink', [path.join(modules, '@parley', entry)]).toString();
    symlinkSync(target.trim(), path.join(copy, 'node_modules/@parley', entry));
  }
  for (const ws of ['apps/server', 'apps/web', 'packages/protocol', 'e2e']) {
    const own = path.join(ROOT, ws, 'node_modules');
    if (existsSync(own)) symlinkSync(own, path.join(copy, ws, 'node_modules'));
  }
}

/** One line added to a registry file: its import at the top, its entry before `before`. */
function addRegistryLine(copy: string, file: string, edit: RegistryLine) {
  const full = path.join(copy, file);
  let text = readFileSync(full, 'utf8');
  const at = text.indexOf(edit.before);
  expect(at, `${file}: "${edit.before}"`).toBeGreaterThan(0);
  text = text.slice(0, at) + edit.insert + text.slice(at);
  if (edit.import) text = `${edit.import}\n${text}`;
  writeFileSync(full, text);
}
interface RegistryLine {
  import?: string;
  before: string;
  insert: string;
}

function mergeInto(target: Record<string, unknown>, add: Record<string, unknown>) {
  for (const [key, value] of Object.entries(add)) {
    if (typeof value === 'object' && value !== null) {
      target[key] ??= {};
      mergeInto(target[key] as Record<string, unknown>, value as Record<string, unknown>);
    } else {
      expect(target[key], `locale key ${key} taken`).toBeUndefined();
      target[key] = value;
    }
  }
}

async function run(cwd: string, cmd: string, args: string[]) {
  const env = { ...process.env };
  // The copy's contract runs on SQLite only (and builds no PostgreSQL project).
  delete env.PARLEY_TEST_DATABASE_URL;
  delete env.PARLEY_TEST_DB;
  delete env.VITEST;
  delete env.VITEST_POOL_ID;
  delete env.VITEST_WORKER_ID;
  delete env.NODE_ENV;
  delete env.FORCE_COLOR;
  env.NO_COLOR = '1';
  try {
    return await exec(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

describe('a new channel with credentials, dropped into a copy of the tree', () => {
  let copy: string;
  let before: Map<string, string>;
  const started = Date.now();

  beforeAll(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'parley-channel-added-'));
    const files = treeFiles();
    before = new Map(files.map((f) => [f, sha(path.join(ROOT, f))]));
    for (const f of files) cpSync(path.join(ROOT, f), path.join(copy, f));
    linkModules(copy);

    // The channel's own files, each new.
    const own = walk(FIXTURE).filter((f) => f.startsWith('apps/'));
    for (const f of own) {
      expect(existsSync(path.join(copy, f)), `${f} exists already`).toBe(false);
      cpSync(path.join(FIXTURE, f), path.join(copy, f));
    }
    // Its registry lines.
    const lines = JSON.parse(
      readFileSync(path.join(FIXTURE, 'registry-lines.json'), 'utf8'),
    ) as Record<string, RegistryLine>;
    for (const [file, edit] of Object.entries(lines)) addRegistryLine(copy, file, edit);
    // Its locale keys, in the four locales.
    for (const l of LOCALES) {
      const file = path.join(copy, `apps/web/src/locales/admin/${l}/admin.json`);
      const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      mergeInto(json, JSON.parse(readFileSync(path.join(FIXTURE, `locales/${l}.json`), 'utf8')));
      writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
    }
  }, 120_000);

  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
    console.log(`channel-added: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  it('edits only the registries and the locales, and adds files only in its own places', () => {
    const edited = [...before].filter(([f, hash]) => sha(path.join(copy, f)) !== hash);
    expect(edited.map(([f]) => f).sort()).toEqual(ALLOWED_EDITS);
    const added = walk(copy)
      .filter((f) => !f.split(path.sep).includes('node_modules'))
      .filter((f) => !before.has(f));
    expect(added.length).toBeGreaterThan(0);
    for (const f of added)
      expect(
        OWN_PLACES.some((p) => f.startsWith(p)),
        f,
      ).toBe(true);
    // What it brings: a migration, its settings, its tables' types, its view, its kit.
    expect(added).toEqual(
      expect.arrayContaining([
        `apps/server/src/channels/${NAME}/migrations/050-${NAME}.ts`,
        `apps/server/src/channels/${NAME}/${NAME}.config.ts`,
        `apps/server/src/channels/${NAME}/${NAME}.tables.ts`,
        `apps/server/src/channels/${NAME}/${NAME}.channel.ts`,
        `apps/web/src/features/${NAME}/${NAME}.view.ts`,
        `apps/server/test/channels/${NAME}.kit.ts`,
      ]),
    );
  });

  it('builds the protocol, typechecks the server and the web, and keeps the contract', async () => {
    const tsc = path.join(copy, 'node_modules/typescript/bin/tsc');
    await run(copy, process.execPath, [tsc, '-p', 'packages/protocol/tsconfig.json']);
    // The server's sources and tests (its kit), and the web, side by side.
    await Promise.all([
      run(copy, process.execPath, [tsc, '-p', 'apps/server/tsconfig.json', '--noEmit']),
      run(copy, process.execPath, [tsc, '-p', 'apps/web/tsconfig.json', '--noEmit']),
    ]);
    const vitest = path.join(copy, 'node_modules/vitest/vitest.mjs');
    const { stdout } = await run(path.join(copy, 'apps/server'), process.execPath, [
      vitest,
      'run',
      'test/channel-contract.test.ts',
      '--project',
      'sqlite',
      '-t',
      `${NAME} channel|every channel`,
    ]);
    // The channel's four contract tests and the two of the registry and the kits ran and passed.
    expect(stdout).toMatch(/Tests\s+6 passed/);
  }, 900_000);
});
