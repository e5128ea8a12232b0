import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalDeepl, LocalLibreTranslate } from './engine-servers.js';
import { createChat, createSeat, type ChatFixture, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

const TEXT_V2 = '/v1/seat/chat/translate/text_v2';
const LANGUAGES = '/v1/seat/chat/translate/languages';
const SET_LANGUAGE = '/v1/seat/chat/set_customer_language';
const INFO = '/v1/seat/chat/getGroupInfo';

let deepl: LocalDeepl;
let libre: LocalLibreTranslate;
let t: TestApp;
let bare: TestApp;
let a: SeatFixture;
let b: SeatFixture;
let bChat: ChatFixture;
beforeAll(async () => {
  deepl = await new LocalDeepl('calls-key').start();
  libre = await new LocalLibreTranslate().start();
  t = await createTestApp({
    translation: {
      providers: [
        { name: 'deepl', authKey: 'calls-key', apiUrl: deepl.url },
        { name: 'libretranslate', url: libre.url, apiKey: null },
      ],
      timeoutMs: 5_000,
      retries: 0,
      retryDelayMs: 5,
    },
  });
  // No engine configured at all.
  bare = await createTestApp();
  a = await createSeat(t, 'calls-a');
  b = await createSeat(t, 'calls-b');
  bChat = await createChat(t.db, b);
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await deepl?.stop();
  await libre?.stop();
});
beforeEach(() => {
  deepl.reset();
  libre.reset();
});

async function customerLanguage(seat: SeatFixture, sessionId: number) {
  const res = await t.call(INFO, { group_id: seat.groups.ungrouped }, seat.token);
  return res.data.account_list.find((s) => s.session_id === sessionId)?.customer_language;
}

describe('text_v2 validation', () => {
  const many = Array.from({ length: 51 }, (_, i) => `text ${i}`);
  const cases: [Record<string, unknown>, string][] = [
    [{ texts: ['hola'], target_lang: 'XX' }, 'target_lang'],
    [{ texts: ['hola'], source_lang: 'es', target_lang: 'EN' }, 'source_lang'],
    [{ texts: ['hola'] }, 'target_lang'],
    [{ texts: [], target_lang: 'EN' }, 'texts'],
    [{ target_lang: 'EN' }, 'texts'],
    [{ texts: many, target_lang: 'EN' }, 'texts'],
    [{ texts: ['x'.repeat(5001)], target_lang: 'EN' }, 'texts.0'],
    [{ texts: ['ok', 7], target_lang: 'EN' }, 'texts.1'],
    [{ texts: ['hola'], source_lang: 'EN-GB', target_lang: 'EN-US' }, 'target_lang'],
    [{ texts: ['hola'], target_lang: 'EN', session_id: 'abc' }, 'session_id'],
    [{ texts: ['hola'], target_lang: 'EN', direction: 'sideways' }, 'direction'],
  ];
  it('answers 100001 naming the field, and asks no engine', async () => {
    for (const [body, field] of cases) {
      const res = await t.call(TEXT_V2, body, a.token);
      expect(res.code, JSON.stringify(body).slice(0, 80)).toBe('100001');
      expect(res.msg).toBe(`Parameter error: ${field}`);
    }
    expect(deepl.requests).toHaveLength(0);
  });

  it('another seat’s chat answers 400001 like a missing one; nothing is translated or changed', async () => {
    for (const sessionId of [bChat.sessionId, 999_999]) {
      const res = await t.call(
        TEXT_V2,
        { session_id: sessionId, texts: ['¿Cuánto cuesta?'], target_lang: 'EN' },
        a.token,
      );
      expect(res.code).toBe('400001');
    }
    expect(deepl.requests).toHaveLength(0);
    expect(await customerLanguage(b, bChat.sessionId)).toBe('ES');
  });
});

describe('the customer language of a chat', () => {
  it('is set and cleared by the owner and read back in the chat item', async () => {
    const set = await t.call(
      SET_LANGUAGE,
      { session_id: bChat.sessionId, customer_language: 'PT-BR' },
      b.token,
    );
    expect(set.code).toBe('000000');
    expect(set.data).toEqual({ session_id: bChat.sessionId, customer_language: 'PT-BR' });
    expect(await customerLanguage(b, bChat.sessionId)).toBe('PT-BR');

    const cleared = await t.call(
      SET_LANGUAGE,
      { session_id: bChat.sessionId, customer_language: null },
      b.token,
    );
    expect(cleared.data.customer_language).toBeNull();
    expect(await customerLanguage(b, bChat.sessionId)).toBeNull();
    await t.call(SET_LANGUAGE, { session_id: bChat.sessionId, customer_language: 'ES' }, b.token);
  });

  it('cannot be set on another seat’s chat, nor to a language off the list', async () => {
    const other = await t.call(
      SET_LANGUAGE,
      { session_id: bChat.sessionId, customer_language: 'RU' },
      a.token,
    );
    expect(other.code).toBe('400001');
    for (const [body, field] of [
      [{ session_id: bChat.sessionId, customer_language: 'Klingon' }, 'customer_language'],
      [{ session_id: bChat.sessionId, customer_language: 'ru' }, 'customer_language'],
      [{ session_id: bChat.sessionId }, 'customer_language'],
      [{ session_id: 0, customer_language: 'RU' }, 'session_id'],
    ] as const) {
      const res = await t.call(SET_LANGUAGE, body, b.token);
      expect(res.code).toBe('100001');
      expect(res.msg).toBe(`Parameter error: ${field}`);
    }
    expect(await customerLanguage(b, bChat.sessionId)).toBe('ES');
  });

  it('follows the language detected in the customer’s words, not in the operator’s', async () => {
    const chat = await createChat(t.db, a);
    await t.call(SET_LANGUAGE, { session_id: chat.sessionId, customer_language: null }, a.token);
    const outgoing = await t.call(
      TEXT_V2,
      {
        session_id: chat.sessionId,
        texts: ['Thank you'],
        target_lang: 'RU',
        direction: 'outgoing',
      },
      a.token,
    );
    expect(outgoing.data.customer_language).toBeNull();
    const explicit = await t.call(
      TEXT_V2,
      { session_id: chat.sessionId, texts: ['Hello there'], source_lang: 'EN', target_lang: 'RU' },
      a.token,
    );
    expect(explicit.data.customer_language).toBeNull();
    expect(await customerLanguage(a, chat.sessionId)).toBeNull();

    const incoming = await t.call(
      TEXT_V2,
      { session_id: chat.sessionId, texts: ['Привет', 'ok'], target_lang: 'EN' },
      a.token,
    );
    expect(incoming.data.customer_language).toBe('RU');
    expect(await customerLanguage(a, chat.sessionId)).toBe('RU');
  });
});

describe('the engine and its languages', () => {
  it('names the active engine, the fallback order and what it offers', async () => {
    const res = await t.call(LANGUAGES, {}, a.token);
    expect(res.code).toBe('000000');
    expect(res.data).toMatchObject({
      engine: 'deepl',
      engines: ['deepl', 'libretranslate'],
      auto_detect: true,
      pairs: null,
    });
    expect(res.data.targets).toContain('ZH-HANS');
  });

  it('answers "Failed to get language list" when no engine can tell', async () => {
    // A fresh app, so no list is cached yet.
    const app = await createTestApp({ translation: { ...t.config.translation } });
    try {
      const seat = await createSeat(app, 'calls-list-seat');
      deepl.failNext('/v2/languages', 500, 500);
      libre.failNext('/languages', 503);
      const res = await app.call(LANGUAGES, {}, seat.token);
      expect(res.code).toBe('500005');
      expect(res.msg).toBe('Failed to get language list');
      expect(res.data).toEqual({
        message: 'languageListFailed',
        reason: 'unavailable',
        attempts: [
          { engine: 'deepl', reason: 'unavailable' },
          { engine: 'libretranslate', reason: 'unavailable' },
        ],
      });
      // Then the next engine that answers is the active one.
      deepl.failNext('/v2/languages', 500, 500);
      const next = await app.call(LANGUAGES, {}, seat.token);
      expect(next.data).toMatchObject({ engine: 'libretranslate', auto_detect: true });
      expect(next.data.pairs).toContainEqual({ source: 'ES', target: 'EN' });
    } finally {
      await app.close();
    }
  });

  it('an engine that cannot be reached hands over to the next one at once', async () => {
    // A port nothing listens on (a server started and stopped).
    const gone = await new LocalDeepl('gone-key').start();
    await gone.stop();
    const app = await createTestApp({
      translation: {
        ...t.config.translation,
        providers: [
          { name: 'deepl', authKey: 'gone-key', apiUrl: gone.url },
          { name: 'libretranslate', url: libre.url, apiKey: null },
        ],
      },
    });
    try {
      const seat = await createSeat(app, 'calls-unreachable');
      const res = await app.call(TEXT_V2, { texts: ['Gracias'], target_lang: 'EN' }, seat.token);
      expect(res.code).toBe('000000');
      expect(res.data.translations[0]).toMatchObject({
        text: 'Thank you',
        engine: 'libretranslate',
        detected_source_language: 'ES',
      });
    } finally {
      await app.close();
    }
  });

  it('without any engine configured, both calls answer 501002 "Translation error", not a 5xx', async () => {
    const seat = await createSeat(bare, 'calls-bare');
    for (const [path, body] of [
      [TEXT_V2, { texts: ['hola'], source_lang: 'ES', target_lang: 'EN' }],
      [LANGUAGES, {}],
    ] as const) {
      const res = await bare.call(path, body, seat.token);
      expect(res.status, path).toBeLessThan(500);
      expect(res.code, path).toBe('501002');
      expect(res.msg, path).toBe('Translation error');
      expect(res.data, path).toEqual({
        message: 'translationError',
        reason: 'not_configured',
        attempts: [],
        ...(path === TEXT_V2 ? { pair: { source: 'ES', target: 'EN' } } : {}),
        offers: [],
        suggested_engines: ['deepl', 'libretranslate'],
      });
    }
  });
});
