import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apertiumTranslation, startApertium, type Apertium } from './apertium.js';
import { createChat, createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

const TEXT_V2 = '/v1/seat/chat/translate/text_v2';
const LANGUAGES = '/v1/seat/chat/translate/languages';

let apy: Apertium;
let t: TestApp;
let seat: SeatFixture;
beforeAll(async () => {
  apy = await startApertium();
  t = await createTestApp({ translation: apertiumTranslation(apy) });
  seat = await createSeat(t, 'apertium-seat');
});
afterAll(async () => {
  await t?.close();
  await apy?.stop();
});

describe('Apertium APY, the real engine', () => {
  it('translates a Spanish customer message into English', async () => {
    const chat = await createChat(t.db, seat);
    const res = await t.call(
      TEXT_V2,
      {
        session_id: chat.sessionId,
        texts: ['Hola, ¿dónde está la casa?', 'Gracias'],
        source_lang: 'ES',
        target_lang: 'EN',
      },
      seat.token,
    );
    expect(res.code).toBe('000000');
    expect(res.data.engine).toBe('apertium');
    // The engine's own words (Apertium's output may vary a little between package versions).
    const [first, second] = res.data.translations.map((x) => x.text);
    expect(first).toMatch(/^Hello, where .*the house\?$/);
    expect(second).toBe('Thank you');
    expect(res.data.translations.every((x) => x.engine === 'apertium' && !x.from_memory)).toBe(
      true,
    );
  });

  it('sends an English reply in Spanish, keeping the operator’s words beside it', async () => {
    const chat = await createChat(t.db, seat);
    const original = 'Hello my friend, where is the house?';
    const res = await t.call(
      TEXT_V2,
      {
        session_id: chat.sessionId,
        texts: [original],
        source_lang: 'EN',
        target_lang: 'ES',
        direction: 'outgoing',
      },
      seat.token,
    );
    expect(res.code).toBe('000000');
    const spanish = res.data.translations[0]!.text;
    expect(spanish).toMatch(/^Hola mi amigo, dónde .*la casa\?$/i);
    // The operator's translation never changes what the chat knows of the customer.
    expect(res.data.customer_language).toBe('ES');

    const ref = { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone };
    const sent = await t.call(
      '/v1/seat/chat/message',
      { ...ref, content: spanish, original_content: original, client_msg_id: 'apertium-out-01' },
      seat.token,
    );
    expect(sent.code).toBe('000000');
    const record = await t.call('/v1/seat/chat/getChatRecord', ref, seat.token);
    expect(record.data.list.at(-1)).toMatchObject({
      direction: 'out',
      content: spanish,
      original_content: original,
    });
  });

  it('takes the only installed source for auto, and says it did not detect it', async () => {
    const res = await t.call(TEXT_V2, { texts: ['Buenos días'], target_lang: 'EN-US' }, seat.token);
    expect(res.code).toBe('000000');
    expect(res.data.translations[0]).toMatchObject({
      text: 'Good morning',
      detected_source_language: null,
    });
  });

  it('never alters emoji, URLs, phone numbers, numbers or mentions', async () => {
    const text =
      'Hola 😀 mira https://tienda.example.com/precio?id=12 o llama al +34 600 123 456, cuesta 12.50 euros, pregunta a @maria_g 👍🏽';
    const res = await t.call(
      TEXT_V2,
      { texts: [text], source_lang: 'ES', target_lang: 'EN' },
      seat.token,
    );
    expect(res.code).toBe('000000');
    const out = res.data.translations[0]!.text;
    for (const token of [
      '😀',
      'https://tienda.example.com/precio?id=12',
      '+34 600 123 456',
      '12.50',
      '@maria_g',
      '👍🏽',
    ]) {
      expect(out, token).toContain(token);
    }
    expect(out).toMatch(/^Hello 😀 /);
    expect(out).not.toContain('Hola');
  });

  it('a pair no engine offers (Portuguese -> English) answers 422001 naming the pair and what the engine offers', async () => {
    const chat = await createChat(t.db, seat);
    const res = await t.call(
      TEXT_V2,
      {
        session_id: chat.sessionId,
        texts: ['Bom dia', 'Quero comprar uma casa'],
        source_lang: 'PT',
        target_lang: 'EN',
      },
      seat.token,
    );
    expect(res.status).toBeLessThan(500);
    expect(res.code).toBe('422001');
    expect(res.msg).toBe('Translation error');
    expect(res.data).toMatchObject({
      message: 'translationError',
      reason: 'unsupported_pair',
      attempts: [{ engine: 'apertium', reason: 'unsupported_pair' }],
      pair: { source: 'PT', target: 'EN' },
      suggested_engines: ['deepl', 'libretranslate'],
    });
    // What the configured engine does translate, so the console can say it.
    const { offers } = res.data as unknown as {
      offers: { engine: string; pairs: { source: string; target: string }[] }[];
    };
    expect(offers.map((o) => o.engine)).toEqual(['apertium']);
    expect(offers[0]!.pairs).toEqual(
      expect.arrayContaining([
        { source: 'ES', target: 'EN' },
        { source: 'EN', target: 'ES' },
      ]),
    );
    expect(
      offers[0]!.pairs.some((p) => p.source.startsWith('PT') && p.target.startsWith('EN')),
    ).toBe(false);
  });

  it('lists the installed pairs for the settings dialog', async () => {
    const res = await t.call(LANGUAGES, {}, seat.token);
    expect(res.code).toBe('000000');
    expect(res.data).toMatchObject({
      engine: 'apertium',
      engines: ['apertium'],
      auto_detect: false,
    });
    expect(res.data.offers).toEqual([
      expect.objectContaining({ engine: 'apertium', auto_detect: false, pairs: res.data.pairs }),
    ]);
    expect(res.data.pairs).toEqual(
      expect.arrayContaining([
        { source: 'ES', target: 'EN' },
        { source: 'EN', target: 'ES' },
        { source: 'ES', target: 'EN-US' },
        { source: 'EN-GB', target: 'ES' },
      ]),
    );
    // eng-spa both ways and es-pt both ways (apertium-es-pt, installed by .ci/run).
    expect(res.data.sources.sort()).toEqual(['EN', 'EN-GB', 'EN-US', 'ES', 'PT', 'PT-BR', 'PT-PT']);
    expect(res.data.pairs).toEqual(
      expect.arrayContaining([
        { source: 'ES', target: 'PT' },
        { source: 'PT', target: 'ES' },
      ]),
    );
    expect(res.data.pairs!.some((p) => p.target === 'RU')).toBe(false);
  });
});
