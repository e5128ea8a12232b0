import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  LibreTranslateProvider,
  fromLibreCode,
  libreCandidates,
} from '../src/translation/libretranslate.js';
import { TranslationProviderError } from '../src/translation/provider.js';
import { LocalLibreTranslate } from './engine-servers.js';

const POLICY = { timeoutMs: 5_000, retries: 2, retryDelayMs: 5 };
const TRANSLATE = '/translate';

let libre: LocalLibreTranslate;
beforeAll(async () => {
  libre = await new LocalLibreTranslate('libre-key').start();
});
afterAll(async () => libre?.stop());
beforeEach(() => libre.reset());

const provider = (key: string | null = 'libre-key') =>
  new LibreTranslateProvider(libre.url, key, POLICY);

async function failureOf(p: Promise<unknown>): Promise<TranslationProviderError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TranslationProviderError);
  return err as TranslationProviderError;
}

describe('LibreTranslate codes', () => {
  it('maps the protocol’s codes to the names servers use, and back', () => {
    expect(libreCandidates('ZH-HANS')).toEqual(['zh-Hans', 'zh']);
    expect(libreCandidates('PT-BR')).toEqual(['pt-BR', 'pb', 'pt']);
    expect(libreCandidates('EN-GB')).toEqual(['en']);
    expect(libreCandidates('NB')).toEqual(['nb']);
    expect(fromLibreCode('zt')).toBe('ZH-HANT');
    expect(fromLibreCode('pb')).toBe('PT-BR');
    expect(fromLibreCode('es')).toBe('ES');
    expect(fromLibreCode('xx')).toBeNull();
  });
});

describe('LibreTranslate adapter against a local server following its API', () => {
  it('posts q as an array with source auto, the target, format and api_key', async () => {
    const out = await provider().translate(['Hola', 'Gracias'], 'auto', 'EN-US');
    expect(out).toEqual([
      { text: 'Hello', detectedSource: 'ES' },
      { text: 'Thank you', detectedSource: 'ES' },
    ]);
    const [req] = libre.calls(TRANSLATE);
    expect(req!.method).toBe('POST');
    expect(req!.headers['content-type']).toContain('application/json');
    expect(req!.body).toEqual({
      q: ['Hola', 'Gracias'],
      source: 'auto',
      target: 'en',
      format: 'text',
      api_key: 'libre-key',
    });
  });

  it('uses the server’s own code for a variant (zh-Hans, pb)', async () => {
    await provider().translate(['Hello'], 'EN', 'ZH-HANS');
    await provider().translate(['Hello'], 'EN', 'PT-BR');
    expect(libre.calls(TRANSLATE).map((r) => (r.body as { target: string }).target)).toEqual([
      'zh-Hans',
      'pb',
    ]);
  });

  it('retries a 429 and then succeeds; gives up after bounded 5xx retries', async () => {
    libre.failNext(TRANSLATE, { status: 429, body: { error: 'Slowdown' } });
    expect((await provider().translate(['Hola'], 'ES', 'EN'))[0]!.text).toBe('Hello');
    expect(libre.calls(TRANSLATE)).toHaveLength(2);

    libre.reset();
    libre.failNext(TRANSLATE, 500, 500, 500);
    expect((await failureOf(provider().translate(['Hola'], 'ES', 'EN'))).reason).toBe(
      'unavailable',
    );
    expect(libre.calls(TRANSLATE)).toHaveLength(3);
  });

  it('splits more than 50 texts into several calls, in order', async () => {
    const texts = Array.from({ length: 51 }, (_, i) => `line ${i}`);
    const out = await provider().translate(texts, 'EN', 'DE');
    expect(out.map((o) => o.text)).toEqual(texts.map((t) => `[de] ${t}`));
    expect(libre.calls(TRANSLATE).map((r) => (r.body as { q: string[] }).q.length)).toEqual([
      50, 1,
    ]);
  });

  it('refuses a language the server lacks without asking it, and reports a wrong key', async () => {
    expect((await failureOf(provider().translate(['Hola'], 'ES', 'HI'))).reason).toBe(
      'unsupported_pair',
    );
    expect(libre.calls(TRANSLATE)).toHaveLength(0);
    expect((await failureOf(provider('wrong').translate(['Hola'], 'ES', 'EN'))).reason).toBe(
      'auth_failed',
    );
  });

  it('lists its pairs in the protocol’s codes', async () => {
    const langs = await provider().languages();
    expect(langs.autoDetect).toBe(true);
    expect(langs.pairs).toEqual(
      expect.arrayContaining([
        { source: 'ES', target: 'EN' },
        { source: 'EN', target: 'ZH-HANS' },
        { source: 'EN', target: 'PT-BR' },
        { source: 'ZH-HANT', target: 'EN-GB' },
      ]),
    );
    expect(langs.targets).not.toContain('HI');
    // Two codes of one language are never a pair.
    expect(langs.pairs!.some((p) => p.source === 'EN-GB' && p.target === 'EN-US')).toBe(false);
  });
});
