import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { checkMantineCss } from './scripts/check-mantine-css.mjs';
import { precompress } from './scripts/precompress.mjs';
import { screenChunks } from './scripts/screen-chunks.mjs';
import { serviceWorker } from './scripts/service-worker.mjs';

const backend = process.env.PARLEY_API ?? 'http://localhost:8080';

/**
 * A quick start builds quietly: only warnings and errors (there are none). PARLEY_BUILD_REPORT=1
 * brings back Vite's full report: every chunk with its size and gzip size, and the plugins' notes.
 */
const report = process.env.PARLEY_BUILD_REPORT === '1';

/**
 * The protocol's modules only declare constants and schemas: a screen that imports a constant
 * does not need the zod schemas beside it (zod is ~30 KB gzip), so unused modules are dropped.
 * Everything else keeps its package's own `sideEffects` (undefined).
 */
const protocolHasNoSideEffects = (id: string) =>
  /[\\/]packages[\\/]protocol[\\/]/.test(id) ? false : undefined;

/**
 * What every screen runs (React, the router, i18next, Mantine's core) in one chunk, rather
 * than in the handful of pieces the bundler would otherwise cut it into.
 */
const FRAMEWORK =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|use-sync-external-store|clsx|@mantine[\\/]core[\\/]esm[\\/]core)[\\/]/;

const screens = screenChunks({
  start: /[\\/]src[\\/]features[\\/]auth[\\/]components[\\/]login-page\.tsx$/,
  console: /[\\/]src[\\/]app[\\/]console[\\/](home-layout|console-page)\.tsx$/,
  admin:
    /[\\/]src[\\/](app|features)[\\/]admin[\\/][^\\/]+\.tsx?$|[\\/]src[\\/]features[\\/]admin[\\/]components[\\/]/,
  adminArea: /[\\/]src[\\/](app|features)[\\/]admin[\\/]/,
});

export default defineConfig({
  logLevel: report ? 'info' : 'warn',
  plugins: [react(), screens.plugin, checkMantineCss(), serviceWorker(), precompress()],
  server: {
    port: 5173,
    proxy: {
      // rewriteWsOrigin: the push sockets accept only the server's own origin (docs/security.md).
      '/v1': { target: backend, changeOrigin: true, ws: true, rewriteWsOrigin: true },
      '/healthz': { target: backend, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    // Gzipping every chunk only to print its size: part of the report.
    reportCompressedSize: report,
    rolldownOptions: {
      treeshake: { moduleSideEffects: protocolHasNoSideEffects },
      output: {
        codeSplitting: {
          groups: [{ name: 'framework', test: FRAMEWORK, priority: 2 }, ...screens.groups],
        },
      },
    },
  },
});
