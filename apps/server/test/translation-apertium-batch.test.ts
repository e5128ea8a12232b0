/**
 * A chat's texts go to the real Apertium APY joined into as few requests as its size allows,
 * and come back as each text alone would. Requests are counted by a recording proxy in front
 * of APY (test/apertium.ts); "alone" is APY's own answer to the text sent by itself.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  apertiumTranslation,
  recordingProxy,
  startApertium,
  translateAlone,
  type ApyProxy,
  type Apertium,
} from './apertium.js';
import { createChat, createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

const TEXT_V2 = '/v1/seat/chat/translate/text_v2';

let apy: Apertium;
let proxy: ApyProxy;
let t: TestApp;
let seat: SeatFixture;
beforeAll(async () => {
  apy = await startApertium();
  proxy = await recordingProxy(apy);
  t = await createTestApp({ translation: apertiumTranslation(proxy) });
  seat = await createSeat(t, 'apertium-batch-seat');
});
afterAll(async () => {
  await t?.close();
  await proxy?.stop();
  await apy?.stop();
});
beforeEach(() => {
  proxy.translated.length = 0;
});

/** 50 different customer messages (no numbers, so each is one run for the engine). */
function chatTexts(openings: string[], ending = ''): string[] {
  const bodies = [
    'quiero saber dónde está mi pedido, porque la casa de mi madre está lejos de la ciudad',
    '¿cuánto cuesta enviar el paquete rojo a la oficina antes del fin de semana?',
    'el producto llegó roto y necesito una respuesta pronto, por favor',
    'gracias por la ayuda, pero todavía no puedo entrar en mi cuenta nueva',
    'mi hermano compró una camisa azul y quiere cambiarla por otra más grande',
  ];
  return bodies.flatMap((b) => openings.map((o) => `${o} ${b}${ending}`));
}

async function translate(texts: string[]) {
  const chat = await createChat(t.db, seat);
  const res = await t.call(
    TEXT_V2,
    { session_id: chat.sessionId, texts, source_lang: 'ES', target_lang: 'EN' },
    seat.token,
  );
  expect(res.code).toBe('000000');
  return res.data.translations;
}

async function alone(texts: string[]) {
  return Promise.all(texts.map((text) => translateAlone(apy, text, 'spa|eng')));
}

describe('a chat translated by Apertium at once', () => {
  it('sends 50 messages in at most 2 APY requests, each translated as when sent alone', async () => {
    const texts = chatTexts([
      'Hola,',
      'Buenos días,',
      'Buenas tardes,',
      'Perdone,',
      'Oiga,',
      'Mire,',
      'Por favor,',
      'Disculpe,',
      'Bueno,',
      'Hola amigo,',
    ]);
    expect(new Set(texts).size).toBe(50);
    const out = await translate(texts);
    expect(proxy.translated.length).toBeGreaterThanOrEqual(1);
    expect(proxy.translated.length).toBeLessThanOrEqual(2);
    expect(out.map((x) => x.text)).toEqual(await alone(texts));
    expect(out.every((x) => x.engine === 'apertium' && !x.from_memory)).toBe(true);

    // Texts already in the memory are not sent again: only the new ones go, joined.
    proxy.translated.length = 0;
    const fresh = ['¿Dónde está la casa roja?', 'Mi madre quiere una camisa azul'];
    const again = await translate([...texts.slice(0, 20), ...fresh]);
    expect(proxy.translated).toHaveLength(1);
    expect(proxy.translated[0]!.split(/\n+\.\n+/)).toEqual(fresh);
    expect(again.map((x) => x.from_memory)).toEqual([
      ...Array<boolean>(20).fill(true),
      false,
      false,
    ]);
    expect(again.map((x) => x.text)).toEqual([
      ...out.slice(0, 20).map((x) => x.text),
      ...(await alone(fresh)),
    ]);
  });

  it('a text holding the separator itself still comes back whole and in its place', async () => {
    const texts = [
      'Hola amigo',
      'La casa\n\n.\n\nroja',
      'Gracias\n\n\n.\n\n\npor todo',
      'la casa',
      'Buenas noches',
    ];
    const out = await translate(texts);
    // Joined into one request whose separator no text contains.
    expect(proxy.translated).toHaveLength(1);
    expect(proxy.translated[0]).toContain('\n\n\n\n.\n\n\n\n');
    expect(out.map((x) => x.text)).toEqual(await alone(texts));
    expect(out[1]!.text).toMatch(/^The house\n\n\.\n\nRed$/i);
  });

  it('an answer that does not split back sends that batch one text per request, and only that batch', async () => {
    const texts = chatTexts(
      [
        'Señora,',
        'Señor,',
        'Querida tienda,',
        'Estimados señores,',
        'Amigos,',
        'Hola otra vez,',
        'Buenas noches,',
        'Escuchen,',
        'Vale,',
        'Pues,',
      ],
      ', y mañana vuelvo a escribir',
    );
    // Over one joined request's size: two batches.
    expect(texts.join('').length).toBeGreaterThan(4_500);
    proxy.breakNextJoined();
    const out = await translate(texts);
    expect(out.map((x) => x.text)).toEqual(await alone(texts));

    const joined = proxy.translated.filter((q) => /\n\.\n/.test(q));
    const single = proxy.translated.filter((q) => !/\n\.\n/.test(q));
    expect(joined).toHaveLength(2);
    const batches = joined.map((q) => q.split(/\n+\.\n+/));
    // One batch (the broken one) went again text by text; the other did not.
    const broken = batches.find((b) => b.every((text) => single.includes(text)));
    const whole = batches.find((b) => b !== broken);
    expect(broken).toBeDefined();
    expect(single.sort()).toEqual([...broken!].sort());
    expect(whole!.some((text) => single.includes(text))).toBe(false);
    expect([...broken!, ...whole!].sort()).toEqual([...texts].sort());
  });
});
