import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from 'vite';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const viteBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vite/package.json')),
  'bin/vite.js',
);
const outDir = mkdtempSync(path.join(tmpdir(), 'parley-quiet-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/**
 * Issue 37: a quick start's build says nothing unless something is wrong: no chunk table (84
 * lines), no warning (there was INEFFECTIVE_DYNAMIC_IMPORT for admin-guards.ts). The real
 * `vite build` of the app, into a temporary directory.
 */
describe('the web build', () => {
  it('prints no chunk table and no warning', { timeout: 300_000 }, () => {
    const env = { ...process.env };
    delete env.PARLEY_BUILD_REPORT;
    const run = spawnSync(
      process.execPath,
      [viteBin, 'build', '--outDir', outDir, '--emptyOutDir'],
      { cwd: webRoot, env, encoding: 'utf8' },
    );
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).not.toMatch(/\.js\s+[\d.,]+ kB/);
    expect(output).not.toMatch(/warn|INEFFECTIVE|\(!\)/i);
    expect(output.trim()).toBe('');
  });

  it('keeps the full report behind PARLEY_BUILD_REPORT=1', async () => {
    const quiet = await resolveConfig({ root: webRoot, logLevel: undefined }, 'build');
    expect(quiet.logLevel).toBe('warn');
    expect(quiet.build.reportCompressedSize).toBe(false);
    process.env.PARLEY_BUILD_REPORT = '1';
    try {
      const report = await resolveConfig({ root: webRoot }, 'build');
      expect(report.logLevel).toBe('info');
      expect(report.build.reportCompressedSize).toBe(true);
    } finally {
      delete process.env.PARLEY_BUILD_REPORT;
    }
  });
});
