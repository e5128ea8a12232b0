import type { AddressInfo } from 'node:net';
import { buildApp, listen } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { REFUSE_BEFORE_CLOSE_MS, drainAndClose } from './plugins/health.js';
import { DEMO_ACCOUNT, DEMO_ADMIN_ACCOUNT } from './demo/demo.js';
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
  // Draining (docs/deploy.md, "Stopping and rolling restarts"): the health check answers 503
  // for PARLEY_SHUTDOWN_GRACE_MS while requests are still served, then new requests are refused
  // with a coded 503, then the listener closes, push sockets are closed with "service restart"
  // (consoles reconnect at once elsewhere), the background jobs hand their leases back; exit 0.
  // Past PARLEY_SHUTDOWN_TIMEOUT_MS after the grace: exit 1 as it stands.
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const { shutdownTimeoutMs: timeoutMs, shutdownGraceMs: graceMs } = config.ops;
    app.log.info({ signal, graceMs, timeoutMs }, 'shutting down: draining');
    const timer = setTimeout(
      () => {
        app.log.error({ timeoutMs }, 'shutdown timed out');
        process.exit(1);
      },
      graceMs + REFUSE_BEFORE_CLOSE_MS + timeoutMs,
    );
    timer.unref();
    drainAndClose(app, app.parley.health, graceMs).then(
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
  if (config.logFormat === 'json') {
    // Only JSON on stdout for the log collector; the demo's passwords stay out of the logs
    // (they are in the README). Printed at any LOG_LEVEL, as the plain banner is.
    const banner = app.log.child({}, { level: 'info' });
    banner.info({ port }, `Parley listening on http://localhost:${port}`);
    if (demo.loaded) {
      banner.info(
        { account: DEMO_ACCOUNT, admin: DEMO_ADMIN_ACCOUNT },
        'demo logins: the seat and the administrator above (their passwords are in the README)',
      );
    }
    return;
  }
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
