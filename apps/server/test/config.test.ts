import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEDIA_MAX_BYTES_DEFAULT } from '@parley/protocol';
import { ConfigError, defaultWebDir, loadConfig } from '../src/config.js';

describe('config', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      listenBacklog: 8192,
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      logLevel: 'info',
      logFormat: 'pretty',
      tokenTtlHours: 168,
      demo: 'auto',
      loginMaxFailures: 5,
      loginMaxFailuresPerIp: 50,
      loginWindowSeconds: 900,
      deleteForAllWindowMinutes: 120,
    });
    expect(c.webDir).toBe(defaultWebDir());
    expect(defaultWebDir().endsWith(path.join('apps', 'web', 'dist'))).toBe(true);
  });

  it('reads the environment', () => {
    const c = loadConfig({
      PORT: '9000',
      PARLEY_LISTEN_BACKLOG: '1024',
      PARLEY_DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h/db',
      PARLEY_DEMO: 'off',
      PARLEY_WEB_DIR: '/srv/web',
      PARLEY_TOKEN_TTL_HOURS: '0.5',
      LOG_LEVEL: 'warn',
      PARLEY_DELETE_FOR_ALL_WINDOW_MINUTES: '5',
    });
    expect(c).toMatchObject({
      port: 9000,
      listenBacklog: 1024,
      dataDir: '/tmp/x',
      databaseUrl: 'postgres://u@h/db',
      demo: 'off',
      webDir: '/srv/web',
      tokenTtlHours: 0.5,
      logLevel: 'warn',
      deleteForAllWindowMinutes: 5,
    });
  });

  it('refuses bad values with a clear message', () => {
    for (const env of [
      { PORT: 'eighty' },
      { PORT: '70000' },
      { PARLEY_LISTEN_BACKLOG: '0' },
      { PARLEY_DEMO: 'maybe' },
      { DATABASE_URL: 'mysql://x' },
      { PARLEY_LOGIN_MAX_FAILURES: '2.5' },
      { LOG_LEVEL: 'loud' },
      { LOG_FORMAT: 'xml' },
      { PARLEY_DELETE_FOR_ALL_WINDOW_MINUTES: '0' },
      { PARLEY_DELETE_FOR_ALL_WINDOW_MINUTES: '1.5' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });

  it('the public URL: origin and path without a trailing slash; a bad one stops the start naming it', () => {
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(loadConfig({ PARLEY_PUBLIC_URL: 'https://chat.example.com/' }).publicUrl).toBe(
      'https://chat.example.com',
    );
    expect(loadConfig({ PARLEY_PUBLIC_URL: ' https://Example.com:8443/parley/ ' }).publicUrl).toBe(
      'https://example.com:8443/parley',
    );
    for (const bad of [
      'chat.example.com',
      'ftp://chat.example.com',
      'https://chat.example.com/?x=1',
      'https://chat.example.com/#top',
      'https://user:pw@chat.example.com',
    ]) {
      expect(() => loadConfig({ PARLEY_PUBLIC_URL: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ PARLEY_PUBLIC_URL: bad }), bad).toThrow(/PARLEY_PUBLIC_URL/);
    }
  });

  it('WhatsApp: messages per second per number, 80 unless set', () => {
    expect(loadConfig({}).whatsapp?.messagesPerSecond).toBe(80);
    expect(
      loadConfig({ PARLEY_WHATSAPP_MESSAGES_PER_SECOND: '250' }).whatsapp?.messagesPerSecond,
    ).toBe(250);
    for (const bad of ['0', '2.5', 'fast', '1001']) {
      expect(() => loadConfig({ PARLEY_WHATSAPP_MESSAGES_PER_SECOND: bad }), bad).toThrow(
        ConfigError,
      );
    }
  });

  it('media: directory under the data dir, caps per kind in MB, an optional secret', () => {
    const d = loadConfig({ PARLEY_DATA_DIR: '/srv/parley' });
    expect(d.mediaDir).toBe('/srv/parley/media');
    expect(d.mediaMaxBytes).toEqual(MEDIA_MAX_BYTES_DEFAULT);
    expect(d.mediaSecret).toBeNull();
    const c = loadConfig({
      PARLEY_MEDIA_DIR: '/mnt/shared/media',
      PARLEY_MAX_IMAGE_MB: '2',
      PARLEY_MAX_AUDIO_MB: '0.5',
      PARLEY_MAX_VIDEO_MB: '100',
      PARLEY_MAX_FILE_MB: '1',
      PARLEY_MEDIA_SECRET: 'x'.repeat(32),
    });
    expect(c.mediaDir).toBe('/mnt/shared/media');
    expect(c.mediaMaxBytes).toEqual({
      image: 2 * 1024 * 1024,
      audio: 512 * 1024,
      video: 100 * 1024 * 1024,
      file: 1024 * 1024,
    });
    expect(c.mediaSecret).toBe('x'.repeat(32));
    for (const env of [
      { PARLEY_MAX_IMAGE_MB: 'ten' },
      { PARLEY_MAX_VIDEO_MB: '0' },
      { PARLEY_MAX_FILE_MB: '99999' },
      { PARLEY_MEDIA_SECRET: 'short' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });

  it('names each bad variable with what it must be, and never echoes a secret', () => {
    const bad = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(env)}`);
    };
    expect(bad({ PORT: '2.5', LOG_LEVEL: 'loud' })).toBe(
      'PORT must be an integer from 0 to 65535 (got "2.5"); ' +
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    );
    expect(bad({ PARLEY_EVENT_RETENTION_HOURS: '0' })).toBe(
      'PARLEY_EVENT_RETENTION_HOURS must be a number from 0.01 to 2160 (got "0")',
    );
    expect(bad({ REDIS_URL: 'http://cache' })).toBe(
      'REDIS_URL must be a redis:// or rediss:// URL (got "http://cache")',
    );
    expect(bad({ PARLEY_SANDBOX: 'perhaps' })).toBe(
      'PARLEY_SANDBOX must be on (1, true), off (0, false) or auto (got "perhaps")',
    );
    expect(bad({ PARLEY_MEDIA_SECRET: 'hunter2' })).toBe(
      'PARLEY_MEDIA_SECRET must be at least 32 characters',
    );
    // Blank is unset: the default.
    expect(loadConfig({ PORT: ' ', PARLEY_SANDBOX: '' })).toMatchObject({
      port: 8080,
      sandbox: 'auto',
    });
  });
});
