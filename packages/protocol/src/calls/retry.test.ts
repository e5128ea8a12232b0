import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADMIN_CALLS, CALLS, RETRY_SAFE_PATHS } from '../index.js';

const NGINX_CONF = fileURLToPath(new URL('../../../../deploy/nginx.conf', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../../scripts/gen-nginx-retry.mjs', import.meta.url));

/** The regular expression of nginx.conf's location that passes POSTs on (`non_idempotent`). */
function shippedRetryLocation(): RegExp {
  const conf = readFileSync(NGINX_CONF, 'utf8');
  const locations = [...conf.matchAll(/location ~ (\S+) \{([^}]*)\}/g)].filter(([, , body]) =>
    body!.includes('non_idempotent'),
  );
  expect(locations).toHaveLength(1);
  return new RegExp(locations[0]![1]!);
}

describe('calls safe to send twice', () => {
  it('every call of both tables says whether it is', () => {
    for (const def of [...Object.values(CALLS), ...Object.values(ADMIN_CALLS)]) {
      expect(typeof def.retrySafe).toBe('boolean');
    }
    // The ones the hand-written list missed, and ones that must never run twice.
    expect(RETRY_SAFE_PATHS).toEqual(
      expect.arrayContaining(['/v1/seat/chat/markUnread', '/v1/seat/wa/sendTemplate']),
    );
    for (const once of [
      '/v1/seat/chat/doGroup',
      '/v1/seat/chat/logout',
      '/v1/admin/seats/create',
    ]) {
      expect(RETRY_SAFE_PATHS).not.toContain(once);
    }
  });

  it("nginx.conf's retry location matches exactly the retry-safe calls", () => {
    const location = shippedRetryLocation();
    const all = [...Object.keys(CALLS), ...Object.keys(ADMIN_CALLS)];
    expect(all.filter((p) => location.test(p))).toEqual(
      all.filter((p) => RETRY_SAFE_PATHS.includes(p)),
    );
    // Nothing but whole paths: a longer or a nearby one is not passed on.
    expect(location.test('/v1/seat/chat/messageX')).toBe(false);
    expect(location.test('/v1/seat/chat/message/x')).toBe(false);
  });

  it('the generator agrees with the committed file (npm run lint:docs)', () => {
    expect(() =>
      execFileSync(process.execPath, [SCRIPT, '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});
