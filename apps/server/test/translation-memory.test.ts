import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalDeepl } from './engine-servers.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

const TEXT_V2 = '/v1/seat/chat/translate/text_v2';
const TRANSLATE = '/v2/translate';

let deepl: LocalDeepl;
let t: TestApp;
let a: SeatFixture;
let b: SeatFixture;
beforeAll(async () => {
  deepl = await new LocalDeepl('memory-key').start();
  t = await createTestApp({
    translation: {
      providers: [{ name: 'deepl', authKey: 'memory-key', apiUrl: deepl.url }],
      timeoutMs: 5_000,
      retries: 0,
      retryDelayMs: 5,
    },
  });
  a = await createSeat(t, 'memory-a');
  b = await createSeat(t, 'memory-b');
});
afterAll(async () => {
  await t?.close();
  await deepl?.stop();
});
beforeEach(() => deepl.reset());

/** The texts DeepL was sent, call by call. */
function sent(): string[][] {
  return deepl.calls(TRANSLATE).map((r) => (r.body as { text: string[] }).text);
}

describe('the shared translation memory', () => {
  it('translates a text once for every seat: the second ask comes from memory', async () => {
    const first = await t.call(
      TEXT_V2,
      { texts: ['Hola', 'Gracias'], source_lang: 'ES', target_lang: 'EN-GB' },
      a.token,
    );
    expect(first.code).toBe('000000');
    expect(first.data.translations).toEqual([
      { text: 'Hello', detected_source_language: null, from_memory: false, engine: 'deepl' },
      { text: 'Thank you', detected_source_language: null, from_memory: false, engine: 'deepl' },
    ]);
    expect(sent()).toEqual([['Hola', 'Gracias']]);

    // Another seat: the known texts come from memory, only the new one goes to the engine.
    const second = await t.call(
      TEXT_V2,
      { texts: ['Gracias', 'Hola amigo', 'Hola'], source_lang: 'ES', target_lang: 'EN-GB' },
      b.token,
    );
    expect(second.data.translations).toEqual([
      { text: 'Thank you', detected_source_language: null, from_memory: true, engine: 'deepl' },
      {
        text: '[en] Hola amigo',
        detected_source_language: null,
        from_memory: false,
        engine: 'deepl',
      },
      { text: 'Hello', detected_source_language: null, from_memory: true, engine: 'deepl' },
    ]);
    expect(sent()).toEqual([['Hola', 'Gracias'], ['Hola amigo']]);

    // All known now: the engine is not asked at all.
    const third = await t.call(
      TEXT_V2,
      { texts: ['Hola amigo', 'Hola'], source_lang: 'ES', target_lang: 'EN-GB' },
      a.token,
    );
    expect(third.data.translations.every((x) => x.from_memory)).toBe(true);
    expect(deepl.calls(TRANSLATE)).toHaveLength(2);
  });

  it('keys the memory by source and target: another target is a new translation', async () => {
    await t.call(
      TEXT_V2,
      { texts: ['Gracias por todo'], source_lang: 'ES', target_lang: 'DE' },
      a.token,
    );
    const auto = await t.call(TEXT_V2, { texts: ['Gracias por todo'], target_lang: 'DE' }, a.token);
    const fr = await t.call(
      TEXT_V2,
      { texts: ['Gracias por todo'], source_lang: 'ES', target_lang: 'FR' },
      a.token,
    );
    expect([auto.data.translations[0]!.from_memory, fr.data.translations[0]!.from_memory]).toEqual([
      false,
      false,
    ]);
    expect(deepl.calls(TRANSLATE)).toHaveLength(3);
    // A remembered detection is still reported.
    const again = await t.call(
      TEXT_V2,
      { texts: ['Gracias por todo'], target_lang: 'DE' },
      b.token,
    );
    expect(again.data.translations[0]).toMatchObject({
      from_memory: true,
      detected_source_language: 'ES',
    });
  });

  it('sends each run once, all texts in one batch, and repeats answers in the order asked', async () => {
    const texts = ['Sí 😀 gracias', 'Vale 12 veces', 'Sí 😀 gracias', '😀 12'];
    const res = await t.call(TEXT_V2, { texts, source_lang: 'ES', target_lang: 'EN' }, a.token);
    expect(res.code).toBe('000000');
    expect(sent()).toEqual([['Sí', 'gracias', 'Vale', 'veces']]);
    expect(res.data.translations.map((x) => x.text)).toEqual([
      '[en] Sí 😀 Thank you',
      '[en] Vale 12 [en] veces',
      '[en] Sí 😀 Thank you',
      '😀 12',
    ]);
    // Nothing to translate in the last one: no engine, not from memory.
    expect(res.data.translations[3]).toMatchObject({ engine: null, from_memory: false });
  });

  it('asks no engine for texts of emoji, numbers and links only', async () => {
    const res = await t.call(
      TEXT_V2,
      { texts: ['👍🏽', 'https://example.com', '+44 20 7946 0958', ''], target_lang: 'EN' },
      b.token,
    );
    expect(res.data.translations.map((x) => x.text)).toEqual([
      '👍🏽',
      'https://example.com',
      '+44 20 7946 0958',
      '',
    ]);
    expect(deepl.requests).toHaveLength(0);
  });
});
