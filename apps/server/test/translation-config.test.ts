import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('translation engines from the environment', () => {
  it('has no engine by default', () => {
    expect(loadConfig({}).translation).toEqual({
      providers: [],
      timeoutMs: 10_000,
      retries: 2,
      retryDelayMs: 500,
    });
  });

  it('uses every configured engine, DeepL first, when no order is given', () => {
    const c = loadConfig({
      APERTIUM_URL: 'http://127.0.0.1:2737/',
      DEEPL_AUTH_KEY: 'abc:fx',
      LIBRETRANSLATE_URL: 'https://lt.example.com',
      LIBRETRANSLATE_API_KEY: 'k',
    });
    expect(c.translation.providers).toEqual([
      { name: 'deepl', authKey: 'abc:fx', apiUrl: null },
      { name: 'libretranslate', url: 'https://lt.example.com', apiKey: 'k' },
      { name: 'apertium', url: 'http://127.0.0.1:2737' },
    ]);
  });

  it('follows PARLEY_TRANSLATION_PROVIDERS for the order and the choice', () => {
    const c = loadConfig({
      PARLEY_TRANSLATION_PROVIDERS: ' apertium , DeepL ',
      DEEPL_AUTH_KEY: 'abc',
      DEEPL_API_URL: 'http://127.0.0.1:9000',
      APERTIUM_URL: 'http://127.0.0.1:2737',
      LIBRETRANSLATE_URL: 'https://lt.example.com',
      PARLEY_TRANSLATION_TIMEOUT_MS: '2500',
      PARLEY_TRANSLATION_RETRIES: '0',
    });
    expect(c.translation.providers.map((p) => p.name)).toEqual(['apertium', 'deepl']);
    expect(c.translation.providers[1]).toEqual({
      name: 'deepl',
      authKey: 'abc',
      apiUrl: 'http://127.0.0.1:9000',
    });
    expect(c.translation).toMatchObject({ timeoutMs: 2500, retries: 0 });
  });

  it('refuses an unknown engine, a listed engine without its setting, and a bad URL', () => {
    expect(() => loadConfig({ PARLEY_TRANSLATION_PROVIDERS: 'google' })).toThrow(
      /unknown engine "google"/,
    );
    expect(() => loadConfig({ PARLEY_TRANSLATION_PROVIDERS: 'deepl' })).toThrow(
      /lists deepl but DEEPL_AUTH_KEY is not set/,
    );
    expect(() => loadConfig({ APERTIUM_URL: 'localhost:2737' })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_TRANSLATION_RETRIES: '9' })).toThrow(/RETRIES/);
  });
});
