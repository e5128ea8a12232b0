import { CALLS } from './index.js';
import { ADMIN_CALLS } from './admin-calls.js';

/**
 * Every call safe to send twice (`retrySafe`), seat's and administrator's: what a load balancer
 * may pass to another instance after a failure, and what a draining instance refuses with 503
 * so the balancer does (deploy/nginx.conf, docs/deploy.md "Stopping and rolling restarts").
 */
export const RETRY_SAFE_PATHS: readonly string[] = [
  ...Object.entries(CALLS),
  ...Object.entries(ADMIN_CALLS),
]
  .filter(([, def]) => def.retrySafe)
  .map(([path]) => path);
