import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The image's node_modules (Dockerfile, scripts/container/runtime-modules.mjs): what the built
 * server runs, reached from the server's and the protocol's dependencies; no build or test
 * tool. Listed here on this checkout's full (dev) install, which has every package the image's
 * `npm ci --omit=dev` has and more.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const kept = execFileSync(
  process.execPath,
  [`${ROOT}scripts/container/runtime-modules.mjs`, ROOT, '--list'],
  { encoding: 'utf8' },
)
  .trim()
  .split('\n')
  .map((p) => p.replace(/^.*node_modules\//, ''));
const deps = (ws: string) =>
  Object.keys(
    (JSON.parse(readFileSync(`${ROOT}${ws}/package.json`, 'utf8')) as { dependencies: object })
      .dependencies,
  );

describe("the image's node_modules", () => {
  it('keeps every runtime dependency of the server and the protocol, and theirs', () => {
    expect(kept).toEqual(
      expect.arrayContaining([...deps('apps/server'), ...deps('packages/protocol')]),
    );
    // Reached only through others: fastify's router, sharp's native build, pg's pool.
    expect(kept).toEqual(expect.arrayContaining(['find-my-way', 'pg-pool', 'detect-libc']));
  });

  it('carries no build, test or web tool', () => {
    for (const tool of ['typescript', 'vitest', 'eslint', 'prettier', 'vite', 'react', 'i18next']) {
      expect(kept).not.toContain(tool);
    }
  });
});
