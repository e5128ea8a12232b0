import type { TranslationConfig } from '../config.js';
import { ApertiumProvider } from './apertium.js';
import { DeeplProvider } from './deepl.js';
import type { HttpPolicy } from './http.js';
import { LibreTranslateProvider } from './libretranslate.js';
import type { TranslationProvider } from './provider.js';

/** The configured engines, in fallback order. */
export function createProviders(config: TranslationConfig): TranslationProvider[] {
  const policy: HttpPolicy = {
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    retryDelayMs: config.retryDelayMs,
  };
  return config.providers.map((p) => {
    switch (p.name) {
      case 'deepl':
        return new DeeplProvider(p.authKey, p.apiUrl, policy);
      case 'libretranslate':
        return new LibreTranslateProvider(p.url, p.apiKey, policy);
      case 'apertium':
        return new ApertiumProvider(p.url, policy);
    }
  });
}
