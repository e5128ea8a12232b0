// @ts-check

/** `import { a, b as c } from 'x'` (value imports; `type` ones are left out). */
const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
/** The statements a barrel file (a package index that only re-exports) is made of. */
const REEXPORT_STATEMENTS = [
  /import\s*\{[^}]*\}\s*from\s*["'][^"']+["'];?/g,
  /export\s*\*\s*from\s*["'][^"']+["'];?/g,
  /export\s*\{[^}]*\}(?:\s*from\s*["'][^"']+["'])?;?/g,
  /\/\/[^\n]*|\/\*[\s\S]*?\*\//g,
  /["']use client["'];?/g,
];

/** The app's own modules (not a package's). */
const SOURCE = /^(?!.*[\\/]node_modules[\\/]).*[\\/]src[\\/]/;

/** @param {string} code */
function isReexportsOnly(code) {
  return (
    REEXPORT_STATEMENTS.reduce((rest, pattern) => rest.replace(pattern, ''), code).trim() === ''
  );
}

/**
 * The value names of an import list: `a, type B, c as d` -> a, c.
 * @param {string} list
 */
function importedNames(list) {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith('type '))
    .map((part) => part.split(/\s+as\s+/)[0] ?? '');
}

/**
 * Two chunks shaped by screen instead of the bundler's default, which puts every set of
 * modules shared by a different set of lazily loaded screens into a chunk of its own (here
 * ~90 files, most under 1 KB, for the console): `start`, what main.tsx needs to show any
 * screen and the login screen, and `console`, what the console's first screen adds (app/console/home-layout and
 * console-page). Dialogs and menus keep their own chunks, fetched when first opened.
 *
 * The sets follow the static imports from those modules. A barrel (a package's index that
 * only re-exports, like @mantine/core's) is not followed whole: only the modules that export
 * the names actually imported from it. The result only decides which file a module is in,
 * never whether it is loaded.
 * A third set, `admin`, holds what only the administrator's console (app/admin, features/admin)
 * adds: without it the bundler folds the admin screens' shared modules into the console chunk,
 * which every seat downloads. Only: a module that any seat module outside `adminArea` reaches
 * stays out of it.
 * @param {{ start: RegExp; console: RegExp; admin?: RegExp; adminArea?: RegExp }} roots besides
 *   the entry, the first screen an operator sees (the login screen); the console's root modules;
 *   the admin area's roots, and every module of the admin area
 * @returns {{ plugin: import('vite').Plugin; groups: { name: string; test: (id: string) => boolean; includeDependenciesRecursively: false; priority: number }[] }}
 */
export function screenChunks(roots) {
  /** @type {Set<string>} */
  const start = new Set();
  /** @type {Set<string>} */
  const consoleOnly = new Set();
  /** @type {Set<string>} */
  const adminOnly = new Set();
  return {
    plugin: {
      name: 'parley:screen-chunks',
      apply: 'build',
      buildEnd() {
        /** @param {string} id */
        const info = (id) => this.getModuleInfo(id);
        /** @param {string} id */
        /** @type {Map<string, Map<string, string> | null>} */
        const barrelCache = new Map();
        /** The modules a barrel re-exports, by exported name; null when it is no barrel. */
        const barrelOf = (/** @type {string} */ id) => {
          if (!barrelCache.has(id)) {
            const code = info(id)?.code;
            let owners = null;
            if (code && isReexportsOnly(code)) {
              owners = new Map();
              for (const dep of info(id)?.importedIds ?? []) {
                for (const name of info(dep)?.exports ?? []) owners.set(name, dep);
              }
            }
            barrelCache.set(id, owners);
          }
          return barrelCache.get(id) ?? null;
        };
        /** @param {string[]} from @param {Set<string>} into */
        const reach = (from, into) => {
          const queue = [...from];
          for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
            if (into.has(id)) continue;
            into.add(id);
            const module = info(id);
            if (!module) continue;
            const barrels = new Set(module.importedIds.filter((dep) => barrelOf(dep)));
            queue.push(...module.importedIds.filter((dep) => !barrels.has(dep)));
            if (barrels.size === 0) continue;
            // Which barrel a name comes from is not needed: names do not repeat across them.
            for (const match of (module.code ?? '').matchAll(NAMED_IMPORT)) {
              if ((match[2] ?? '.').startsWith('.')) continue;
              for (const name of importedNames(match[1] ?? '')) {
                for (const barrel of barrels) {
                  const owner = barrelOf(barrel)?.get(name);
                  if (owner) queue.push(owner);
                }
              }
            }
          }
        };
        const ids = [...this.getModuleIds()];
        const entries = ids.filter((id) => info(id)?.isEntry);
        reach(
          [
            ...entries.flatMap((id) => info(id)?.importedIds ?? []),
            ...ids.filter((id) => roots.start.test(id)),
          ],
          start,
        );
        const consoleAll = new Set();
        reach(
          ids.filter((id) => roots.console.test(id)),
          consoleAll,
        );
        for (const id of consoleAll) if (!start.has(id)) consoleOnly.add(id);
        const admin = roots.admin;
        const adminArea = roots.adminArea;
        if (!admin || !adminArea) return;
        const adminAll = new Set();
        reach(
          ids.filter((id) => admin.test(id)),
          adminAll,
        );
        // What any of the seats' own modules reach (the lazily loaded ones too: the open chat,
        // dialogs, menus) is not the admin area's alone: put in the admin chunk, a module the
        // open chat needs (a Mantine Popover) made every seat fetch and run the whole admin
        // console (uPlot, its schemas) when it first opened a chat.
        const seatsAll = new Set();
        reach(
          ids.filter((id) => SOURCE.test(id) && !adminArea.test(id)),
          seatsAll,
        );
        for (const id of adminAll) {
          if (!start.has(id) && !consoleAll.has(id) && !seatsAll.has(id)) adminOnly.add(id);
        }
      },
    },
    groups: [
      {
        name: 'start',
        test: (id) => start.has(id),
        includeDependenciesRecursively: false,
        priority: 1,
      },
      {
        name: 'console',
        test: (id) => consoleOnly.has(id),
        includeDependenciesRecursively: false,
        priority: 1,
      },
      {
        name: 'admin',
        test: (id) => adminOnly.has(id),
        includeDependenciesRecursively: false,
        priority: 1,
      },
    ],
  };
}
