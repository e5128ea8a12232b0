import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeeplProvider, deeplBaseUrl, deeplSourceCode } from '../src/translation/deepl.js';
import { TranslationProviderError } from '../src/translation/provider.js';
import { LocalDeepl, LocalLibreTranslate } from './engine-servers.js';
import { createChat, createSeat } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

const POLICY = { timeoutMs: 5_000, retries: 2, retryDelayMs: 5 };
const TRANSLATE = '/v2/translate';
const TEXT_V2 = '/v1/seat/chat/translate/text_v2';

let deepl: LocalDeepl;
let libre: LocalLibreTranslate;
beforeAll(async () => {
  deepl = await new LocalDeepl('deepl-test-key:fx').start();
  libre = await new LocalLibreTranslate().start();
});
afterAll(async () => {
  await deepl?.stop();
  await libre?.stop();
});
beforeEach(() => {
  deepl.reset();
  libre.reset();
});

function provider() {
  return new DeeplProvider(deepl.authKey, deepl.url, POLICY);
}

async function failureOf(p: Promise<unknown>): Promise<TranslationProviderError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TranslationProviderError);
  return err as TranslationProviderError;
}

describe('DeepL endpoint and codes', () => {
  it('uses the Free endpoint for keys ending in :fx, else the Pro one; an override wins', () => {
    expect(deeplBaseUrl('0f3c-11aa:fx')).toBe('https://api-free.deepl.com');
    expect(deeplBaseUrl('0f3c-11aa')).toBe('https://api.deepl.com');
    expect(deeplBaseUrl('0f3c-11aa:fx', 'http://127.0.0.1:9/')).toBe('http://127.0.0.1:9');
  });

  it('sends variants as their base where DeepL wants a source language', () => {
    expect(deeplSourceCode('EN-GB')).toBe('EN');
    expect(deeplSourceCode('PT-BR')).toBe('PT');
    expect(deeplSourceCode('ZH-HANS')).toBe('ZH');
    expect(deeplSourceCode('NB')).toBe('NB');
  });
});

describe('DeepL adapter against a local server following the v2 API', () => {
  it('posts JSON with the auth header, the texts, the target and the base source', async () => {
    const out = await provider().translate(['Hola', 'Gracias'], 'ES', 'EN-GB');
    expect(out).toEqual([
      { text: 'Hello', detectedSource: 'ES' },
      { text: 'Thank you', detectedSource: 'ES' },
    ]);
    const [req] = deepl.calls(TRANSLATE);
    expect(req!.method).toBe('POST');
    expect(req!.headers.authorization).toBe('DeepL-Auth-Key deepl-test-key:fx');
    expect(req!.headers['content-type']).toContain('application/json');
    expect(req!.body).toMatchObject({
      text: ['Hola', 'Gracias'],
      target_lang: 'EN-GB',
      source_lang: 'ES',
    });
  });

  it('leaves the source out for auto and reports detected_source_language', async () => {
    const out = await provider().translate(['¿Cuánto cuesta?'], 'auto', 'EN-US');
    expect(out).toEqual([{ text: 'How much is it?', detectedSource: 'ES' }]);
    expect(deepl.calls(TRANSLATE)[0]!.body).not.toHaveProperty('source_lang');
  });

  it('retries a 429 with back-off and then succeeds', async () => {
    deepl.failNext(TRANSLATE, { status: 429, headers: { 'retry-after': '0' } }, 429);
    const out = await provider().translate(['Hola'], 'ES', 'EN-GB');
    expect(out[0]!.text).toBe('Hello');
    expect(deepl.calls(TRANSLATE)).toHaveLength(3);
  });

  it('answers "quota exceeded" on 456 without retrying', async () => {
    deepl.failNext(TRANSLATE, { status: 456, body: { message: 'Quota exceeded' } });
    const err = await failureOf(provider().translate(['Hola'], 'ES', 'EN-GB'));
    expect(err.reason).toBe('quota_exceeded');
    expect(err.message).toMatch(/quota exceeded/i);
    expect(deepl.calls(TRANSLATE)).toHaveLength(1);
  });

  it('retries a 5xx a bounded number of times, then gives up', async () => {
    deepl.failNext(TRANSLATE, 503, 502, 500, 500);
    const err = await failureOf(provider().translate(['Hola'], 'ES', 'EN-GB'));
    expect(err.reason).toBe('unavailable');
    expect(deepl.calls(TRANSLATE)).toHaveLength(1 + POLICY.retries);
  });

  it('splits more than 50 texts into several calls and keeps their order', async () => {
    const texts = Array.from({ length: 120 }, (_, i) => `line ${i}`);
    const out = await provider().translate(texts, 'EN', 'DE');
    expect(out.map((o) => o.text)).toEqual(texts.map((t) => `[de] ${t}`));
    expect(deepl.calls(TRANSLATE).map((r) => (r.body as { text: string[] }).text.length)).toEqual([
      50, 50, 20,
    ]);
  });

  it('reports a wrong key and an unsupported language as such', async () => {
    const wrong = new DeeplProvider('not-the-key', deepl.url, POLICY);
    expect((await failureOf(wrong.translate(['Hola'], 'ES', 'EN-GB'))).reason).toBe('auth_failed');
    expect((await failureOf(provider().translate(['Hola'], 'ES', 'HI'))).reason).toBe(
      'unsupported_pair',
    );
  });

  it('lists source and target languages in the protocol’s codes', async () => {
    const langs = await provider().languages();
    expect(
      deepl
        .calls('/v2/languages')
        .map((r) => r.query.get('type'))
        .sort(),
    ).toEqual(['source', 'target']);
    expect(langs.autoDetect).toBe(true);
    expect(langs.pairs).toBeNull();
    // A variant is a usable source through its base; DeepL has no Hindi.
    expect(langs.sources).toEqual(
      expect.arrayContaining(['EN', 'EN-GB', 'PT-BR', 'ZH-HANS', 'ES']),
    );
    expect(langs.sources).not.toContain('HI');
    expect(langs.targets).toEqual(
      expect.arrayContaining(['EN', 'EN-GB', 'EN-US', 'PT-BR', 'ZH-HANS', 'NB']),
    );
  });
});

describe('text_v2 through DeepL, falling back to LibreTranslate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      translation: {
        providers: [
          { name: 'deepl', authKey: 'deepl-test-key:fx', apiUrl: deepl.url },
          { name: 'libretranslate', url: libre.url, apiKey: null },
        ],
        timeoutMs: 5_000,
        retries: 1,
        retryDelayMs: 5,
      },
    });
  });
  afterAll(async () => t?.close());

  it('translates through DeepL and says so', async () => {
    const seat = await createSeat(t, 'deepl-seat');
    const res = await t.call(
      TEXT_V2,
      { texts: ['Hola'], source_lang: 'ES', target_lang: 'EN-GB' },
      seat.token,
    );
    expect(res.code).toBe('000000');
    expect(res.data).toMatchObject({
      engine: 'deepl',
      translations: [
        { text: 'Hello', from_memory: false, engine: 'deepl', detected_source_language: null },
      ],
      customer_language: null,
    });
    expect(libre.requests).toHaveLength(0);
  });

  it('after 5xx and its retries, the next engine translates', async () => {
    const seat = await createSeat(t, 'deepl-down-seat');
    deepl.failNext(TRANSLATE, 500, 503);
    const res = await t.call(
      TEXT_V2,
      { texts: ['Gracias'], source_lang: 'ES', target_lang: 'EN' },
      seat.token,
    );
    expect(res.code).toBe('000000');
    expect(res.data.engine).toBe('libretranslate');
    expect(res.data.translations[0]).toMatchObject({ text: 'Thank you', engine: 'libretranslate' });
    expect(deepl.calls(TRANSLATE)).toHaveLength(2);
    expect(libre.calls('/translate')).toHaveLength(1);
  });

  it('a quota exceeded falls back at once; with every engine failing the call says why', async () => {
    const seat = await createSeat(t, 'deepl-quota-seat');
    deepl.failNext(TRANSLATE, 456);
    libre.failNext('/translate', 500, 500);
    const res = await t.call(TEXT_V2, { texts: ['hola amigo'], target_lang: 'EN' }, seat.token);
    expect(res.code).toBe('500005');
    expect(res.msg).toBe('Translation failed');
    expect(res.data).toEqual({
      message: 'translationFailed',
      reason: 'quota_exceeded',
      attempts: [
        { engine: 'deepl', reason: 'quota_exceeded' },
        { engine: 'libretranslate', reason: 'unavailable' },
      ],
    });
    expect(deepl.calls(TRANSLATE)).toHaveLength(1);
  });

  it('remembers the detected language as the chat’s customer language', async () => {
    const seat = await createSeat(t, 'deepl-detect-seat');
    const chat = await createChat(t.db, seat);
    await t.db
      .updateTable('sessions')
      .set({ customer_language: null })
      .where('id', '=', chat.sessionId)
      .execute();
    const res = await t.call(
      TEXT_V2,
      { session_id: chat.sessionId, texts: ['¿Cuánto cuesta?'], target_lang: 'EN-GB' },
      seat.token,
    );
    expect(res.data.translations[0]).toMatchObject({
      text: 'How much is it?',
      detected_source_language: 'ES',
    });
    expect(res.data.customer_language).toBe('ES');
    const list = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: seat.groups.ungrouped },
      seat.token,
    );
    expect(
      list.data.account_list.find((s) => s.session_id === chat.sessionId)?.customer_language,
    ).toBe('ES');
  });
});
