import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const TEMPLATE = new URL('../src/sw/service-worker.js', import.meta.url);

/**
 * Writes the app shell's service worker, `sw.js`, for this build: its cache is named after a
 * hash of the build's index.html (which names every hashed file), and it precaches index.html
 * with the files index.html loads. A new build is a new worker with a new cache, so a page is
 * always one build's files, never a mix (docs/decisions/2026-11-29-web-push.md).
 */
export function serviceWorker() {
  return {
    name: 'parley-service-worker',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      // index.html is in the bundle once Vite's html plugin has run: this plugin is 'post'.
      const index = bundle['index.html'];
      if (!index || index.type !== 'asset') return;
      const html = String(index.source);
      const version = createHash('sha256').update(html).digest('hex').slice(0, 16);
      const shell = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      const source = readFileSync(TEMPLATE, 'utf8')
        .replace("'__VERSION__'", JSON.stringify(version))
        .replace("['__SHELL__']", JSON.stringify(['/index.html', ...new Set(shell)]));
      if (source.includes('__SHELL__') || source.includes('__VERSION__')) {
        this.error('sw.js: the template lost its placeholders');
      }
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}
