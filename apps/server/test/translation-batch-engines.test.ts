/**
 * A chat's 50 texts reach DeepL and LibreTranslate in one request each, as arrays, and each
 * answer goes back to its own text. Against the local servers of test/engine-servers.ts, which
 * follow DeepL API v2 (POST /v2/translate, `text` array of at most 50) and LibreTranslate's
 * API (POST /translate with `q` as an array, as in LibreTranslate 1.x).
 *
 * A request is answered whole or not at all (DeepL has no per-text error; neither has
 * LibreTranslate for an array): when it fails, the next engine gets every pending text and
 * nothing of the failed engine is kept.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalDeepl, LocalLibreTranslate } from './engine-servers.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

const TEXT_V2 = '/v1/seat/chat/translate/text_v2';

let deepl: LocalDeepl;
let libre: LocalLibreTranslate;
let both: TestApp;
let libreOnly: TestApp;
let seat: SeatFixture;
let libreSeat: SeatFixture;
const policy = { timeoutMs: 5_000, retries: 1, retryDelayMs: 5 };
beforeAll(async () => {
  deepl = await new LocalDeepl('batch-key:fx').start();
  libre = await new LocalLibreTranslate().start();
  both = await createTestApp({
    translation: {
      providers: [
        { name: 'deepl', authKey: 'batch-key:fx', apiUrl: deepl.url },
        { name: 'libretranslate', url: libre.url, apiKey: null },
      ],
      ...policy,
    },
  });
  libreOnly = await createTestApp({
    translation: {
      providers: [{ name: 'libretranslate', url: libre.url, apiKey: null }],
      ...policy,
    },
  });
  seat = await createSeat(both, 'batch-engines');
  libreSeat = await createSeat(libreOnly, 'batch-libre');
});
afterAll(async () => {
  await both?.close();
  await libreOnly?.close();
  await deepl?.stop();
  await libre?.stop();
});
beforeEach(() => {
  deepl.reset();
  libre.reset();
});

/**
 * 50 messages of one chat: some repeated, one with nothing to translate. Words of letters only:
 * a word with a digit glued to a letter is a code (protect.ts), kept from the engine.
 */
function chat(tag: string): string[] {
  return Array.from({ length: 50 }, (_, i) =>
    i === 7
      ? '👍🏽'
      : i % 10 === 9
        ? `${tag} mensaje uno`
        : `${tag} mensaje ${'abcdefghij'[i % 10]}${'vwxyz'[Math.floor(i / 10)]}x`,
  );
}

describe('a chat translated at once', () => {
  it('DeepL gets the 50 texts in one request and each answer goes to its own text', async () => {
    const texts = chat('deepl');
    const res = await both.call(
      TEXT_V2,
      { texts, source_lang: 'ES', target_lang: 'EN-GB' },
      seat.token,
    );
    expect(res.code).toBe('000000');
    const calls = deepl.calls('/v2/translate');
    expect(calls).toHaveLength(1);
    // Each text once (the repeated one too), the emoji not at all.
    const sent = (calls[0]!.body as { text: string[] }).text;
    expect(sent).toEqual([...new Set(texts.filter((x) => x !== '👍🏽'))]);
    expect(res.data.translations.map((x) => x.text)).toEqual(
      texts.map((x) => (x === '👍🏽' ? x : `[en] ${x}`)),
    );
    expect(libre.requests).toHaveLength(0);
  });

  it('LibreTranslate gets the 50 texts as one q array and each answer goes to its own text', async () => {
    const texts = chat('libre');
    const res = await libreOnly.call(
      TEXT_V2,
      { texts, source_lang: 'ES', target_lang: 'DE' },
      libreSeat.token,
    );
    expect(res.code).toBe('000000');
    const calls = libre.calls('/translate');
    expect(calls).toHaveLength(1);
    expect((calls[0]!.body as { q: string[] }).q).toEqual([
      ...new Set(texts.filter((x) => x !== '👍🏽')),
    ]);
    expect(res.data.translations.map((x) => x.text)).toEqual(
      texts.map((x) => (x === '👍🏽' ? x : `[de] ${x}`)),
    );
  });

  it('a DeepL request that fails hands the whole chat to LibreTranslate, in one request', async () => {
    const texts = chat('fallback');
    deepl.failNext('/v2/translate', 503, 503);
    const res = await both.call(
      TEXT_V2,
      { texts, source_lang: 'ES', target_lang: 'EN' },
      seat.token,
    );
    expect(res.code).toBe('000000');
    expect(res.data.engine).toBe('libretranslate');
    expect(deepl.calls('/v2/translate')).toHaveLength(2);
    expect(libre.calls('/translate')).toHaveLength(1);
    expect(res.data.translations.map((x) => x.text)).toEqual(
      texts.map((x) => (x === '👍🏽' ? x : `[en] ${x}`)),
    );
    // Nothing of DeepL was kept: asked again, DeepL translates the chat itself.
    deepl.reset();
    const again = await both.call(
      TEXT_V2,
      { texts, source_lang: 'ES', target_lang: 'EN' },
      seat.token,
    );
    expect(deepl.calls('/v2/translate')).toHaveLength(1);
    expect(again.data.translations.filter((x) => x.engine === 'deepl')).toHaveLength(49);
  });
});
