import {
  DEMO_ACCOUNT,
  DEMO_ADMIN_ACCOUNT,
  DEMO_ADMIN_PASSWORD,
  DEMO_PASSWORD,
} from './demo/demo.js';

/** What Fastify's "Server listening at" lines start with (one per interface; app.ts). */
export const LISTEN_TEXT = 'Server listening at ';

/**
 * The lines a person reads at start: where the console, the customer sandbox (when on) and
 * the admin console are, with the demo's logins when the demo workspace is loaded. Printed
 * once; Fastify's own per-interface listening lines go to debug.
 */
export function startBanner(opts: { port: number; demo: boolean; sandbox: boolean }): string {
  const base = `http://localhost:${opts.port}`;
  const demoLogin = (account: string, password: string) =>
    opts.demo ? `  (demo: ${account} / ${password})` : '';
  const lines = [
    `Parley listening on ${base}`,
    `  Console:  ${base}/login${demoLogin(DEMO_ACCOUNT, DEMO_PASSWORD)}`,
    ...(opts.sandbox ? [`  Sandbox:  ${base}/sandbox  (write as a customer)`] : []),
    `  Admin:    ${base}/admin/login${demoLogin(DEMO_ADMIN_ACCOUNT, DEMO_ADMIN_PASSWORD)}`,
  ];
  return lines.join('\n');
}
