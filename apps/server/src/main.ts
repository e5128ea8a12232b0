import type { AddressInfo } from 'node:net';
import { buildApp, listen } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { startBanner } from './start-banner.js';

async function main() {
  const config = loadConfig();
  // The demo is loaded while the app is built: the customer sandbox is on with it.
  const app = await buildApp(config, { autoLoadDemo: true });
  const demo = app.parley.demo;
  if (demo.loaded) {
    app.log.info({ sessions: demo.sessions, messages: demo.messages }, 'demo workspace loaded');
  }

  let closing = false;
  // Draining (docs/deploy.md, "Stopping and rolling restarts"): the health check answers 503,
  // new requests are refused with 503 while those in flight finish, push sockets are closed
  // with "service restart" (consoles reconnect at once elsewhere), the background jobs hand
  // their leases back; then exit 0. Past PARLEY_SHUTDOWN_TIMEOUT_MS: exit 1 as it stands.
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const timeoutMs = config.ops.shutdownTimeoutMs;
    app.log.info({ signal, timeoutMs }, 'shutting down: draining');
    app.parley.health.startDraining();
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs }, 'shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    app.close().then(
      () => {
        app.log.info('shut down');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await listen(app, config);
  const { port } = app.server.address() as AddressInfo;
  const sandbox = app.parley.services.sandbox !== null;
  console.log(startBanner({ port, demo: demo.loaded, sandbox }));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(`Configuration error: ${err.message}`);
    process.exit(78);
  }
  console.error('Parley failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
