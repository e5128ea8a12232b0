import type { AddressInfo } from 'node:net';
import { buildApp, listen } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DEMO_ACCOUNT, DEMO_PASSWORD } from './demo/demo.js';

async function main() {
  const config = loadConfig();
  // The demo is loaded while the app is built: the customer sandbox is on with it.
  const app = await buildApp(config, { autoLoadDemo: true });
  const demo = app.parley.demo;
  if (demo.loaded) {
    app.log.info({ sessions: demo.sessions, messages: demo.messages }, 'demo workspace loaded');
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
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
  console.log(`Parley listening on http://localhost:${port}`);
  if (demo.loaded) {
    console.log(`Demo workspace loaded: log in as ${DEMO_ACCOUNT} / ${DEMO_PASSWORD}`);
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(`Configuration error: ${err.message}`);
    process.exit(78);
  }
  console.error('Parley failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
