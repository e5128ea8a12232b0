import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('operations settings', () => {
  it('metrics off, a 5 s grace and a 10 s drain by default; all read from the environment', () => {
    expect(loadConfig({}).ops).toEqual({
      metricsToken: null,
      shutdownTimeoutMs: 10_000,
      shutdownGraceMs: 5_000,
    });
    const c = loadConfig({
      PARLEY_METRICS_TOKEN: '  a-long-enough-scrape-token  ',
      PARLEY_SHUTDOWN_TIMEOUT_MS: '25000',
      PARLEY_SHUTDOWN_GRACE_MS: '0',
    });
    expect(c.ops).toEqual({
      metricsToken: 'a-long-enough-scrape-token',
      shutdownTimeoutMs: 25_000,
      shutdownGraceMs: 0,
    });
  });

  it('refuses a guessable metrics token and a nonsense time-out', () => {
    expect(() => loadConfig({ PARLEY_METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_SHUTDOWN_TIMEOUT_MS: '-1' })).toThrow(
      /PARLEY_SHUTDOWN_TIMEOUT_MS/,
    );
  });
});
