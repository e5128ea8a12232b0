/**
 * Back-translation of a reply (issue 36): the reply goes into the customer's language by the
 * real Apertium APY, and back into the operator's by another engine that offers the reverse
 * pair (the local LibreTranslate server of engine-servers.ts, following LibreTranslate 1.x),
 * with what did not survive the round trip flagged. At most one engine request more than the
 * translation; the memory answers a repeated text for nothing; the sent bubble finds its round
 * trip again; another seat's chat is refused.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { roundTripFlags } from '../src/translation/round-trip.js';
import { recordingProxy, startApertium, type Apertium, type ApyProxy } from './apertium.js';
import { LocalLibreTranslate } from './engine-servers.js';
import { createChat, createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

const ROUND_TRIP = '/v1/seat/chat/translate/round_trip';
const SENT = '/v1/seat/chat/translate/sent_round_trip';

let apy: Apertium;
let proxy: ApyProxy;
let libre: LocalLibreTranslate;
let t: TestApp;
let alone: TestApp;
let seat: SeatFixture;
let other: SeatFixture;
let aloneSeat: SeatFixture;
beforeAll(async () => {
  apy = await startApertium();
  proxy = await recordingProxy(apy);
  libre = await new LocalLibreTranslate().start();
  const policy = { timeoutMs: 10_000, retries: 1, retryDelayMs: 5 };
  t = await createTestApp({
    translation: {
      providers: [
        { name: 'apertium', url: proxy.url },
        { name: 'libretranslate', url: libre.url, apiKey: null },
      ],
      ...policy,
    },
  });
  alone = await createTestApp({
    translation: { providers: [{ name: 'apertium', url: proxy.url }], ...policy },
  });
  seat = await createSeat(t, 'round-trip-a');
  other = await createSeat(t, 'round-trip-b');
  aloneSeat = await createSeat(alone, 'round-trip-alone');
});
afterAll(async () => {
  await t?.close();
  await alone?.close();
  await libre?.stop();
  await proxy?.stop();
  await apy?.stop();
});
beforeEach(() => {
  libre.reset();
  proxy.translated.length = 0;
});

const REPLY = 'The Zentrox lamp costs $49.90 and we ship it today.';

describe('a reply’s round trip', () => {
  it('translates with one engine and back with another, one request each, then from memory', async () => {
    const chat = await createChat(t.db, seat);
    const first = await t.call(
      ROUND_TRIP,
      { session_id: chat.sessionId, text: REPLY, source_lang: 'EN', target_lang: 'ES' },
      seat.token,
    );
    expect(first.code).toBe('000000');
    const spanish = first.data.translation.text;
    // Apertium's words; the name and the price come through untouched.
    expect(spanish).toContain('Zentrox');
    expect(spanish).toContain('$49.90');
    expect(first.data.translation).toMatchObject({ engine: 'apertium', from_memory: false });
    // The way back by the other engine, which got the Spanish words (not the price) once.
    expect(first.data.back_translation).toMatchObject({
      engine: 'libretranslate',
      from_memory: false,
    });
    expect(first.data.back_translation!.text).toContain('$49.90');
    expect(libre.calls('/translate')).toHaveLength(1);
    expect(proxy.translated).toHaveLength(1);
    expect(first.data.flags).toEqual([]);

    // The same reply again (any seat): the memory answers both ways, no engine is asked.
    const chat2 = await createChat(t.db, other);
    const again = await t.call(
      ROUND_TRIP,
      { session_id: chat2.sessionId, text: REPLY, source_lang: 'EN', target_lang: 'ES' },
      other.token,
    );
    expect(again.data.translation).toMatchObject({ text: spanish, from_memory: true });
    expect(again.data.back_translation).toMatchObject({
      text: first.data.back_translation!.text,
      from_memory: true,
    });
    expect(libre.calls('/translate')).toHaveLength(1);
    expect(proxy.translated).toHaveLength(1);

    // The owner's figures count the way back as translation (from memory the second time),
    // and a back-translation only when an engine made it: the repeat is not counted again.
    const slots = await t.db
      .selectFrom('translation_slots')
      .select(['engine', 'characters', 'memory_characters'])
      .where('seat_id', '=', other.seatId)
      .execute();
    expect(slots.find((s) => s.engine === 'libretranslate')?.memory_characters).toBeGreaterThan(0);
    const trips = (seatId: number) =>
      t.db
        .selectFrom('round_trip_slots')
        .select(['back_translations', 'flagged'])
        .where('seat_id', '=', seatId)
        .execute()
        .then((rows) => rows.map((r) => [Number(r.back_translations), Number(r.flagged)]));
    expect(await trips(seat.seatId)).toEqual([[1, 0]]);
    expect(await trips(other.seatId)).toEqual([]);
    // The same seat previewing it once more: still one.
    const chat3 = await createChat(t.db, seat);
    await t.call(
      ROUND_TRIP,
      { session_id: chat3.sessionId, text: REPLY, source_lang: 'EN', target_lang: 'ES' },
      seat.token,
    );
    expect(await trips(seat.seatId)).toEqual([[1, 0]]);
  });

  it('flags a number the engine broke on the way back, and keeps the round trip for the bubble', async () => {
    const chat = await createChat(t.db, seat);
    const text = 'Your order #A-12345 is not lost, it ships today.';
    libre.breakNumbers(1);
    const res = await t.call(
      ROUND_TRIP,
      { session_id: chat.sessionId, text, source_lang: 'EN', target_lang: 'ES' },
      seat.token,
    );
    expect(res.code).toBe('000000');
    expect(res.data.translation.text).toContain('#A-12345');
    expect(res.data.flags).toContainEqual({
      kind: 'number',
      value: '10',
      change: 'added',
      stage: 'back_translation',
    });

    // Sent as translated: the bubble finds the back-translation and its flags again.
    const sent = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: chat.sendPhone,
        receiver_phone: chat.receiverPhone,
        content: res.data.translation.text,
        original_content: text,
        client_msg_id: 'round-trip-sent-1',
      },
      seat.token,
    );
    expect(sent.code).toBe('000000');
    const kept = await t.call(
      SENT,
      { session_id: chat.sessionId, msg_id: sent.data.msg_id },
      seat.token,
    );
    expect(kept.data).toEqual({
      msg_id: sent.data.msg_id,
      // The bubble says which engine made what the customer got, and which translated it back.
      translation_engine: 'apertium',
      back_translation: res.data.back_translation!.text,
      engine: 'libretranslate',
      flags: res.data.flags,
    });
    // Another seat cannot read it, nor make a round trip in this chat.
    const foreign = await t.call(
      SENT,
      { session_id: chat.sessionId, msg_id: sent.data.msg_id },
      other.token,
    );
    expect(foreign.code).toBe('400001');
    const foreignTrip = await t.call(
      ROUND_TRIP,
      { session_id: chat.sessionId, text, source_lang: 'EN', target_lang: 'ES' },
      other.token,
    );
    expect(foreignTrip.code).toBe('400001');
    // A reply sent without a round trip has none.
    const plain = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: chat.sendPhone,
        receiver_phone: chat.receiverPhone,
        content: 'Hola',
        client_msg_id: 'round-trip-sent-2',
      },
      seat.token,
    );
    const none = await t.call(
      SENT,
      { session_id: chat.sessionId, msg_id: plain.data.msg_id },
      seat.token,
    );
    expect(none.data).toEqual({
      msg_id: plain.data.msg_id,
      translation_engine: null,
      back_translation: null,
      engine: null,
      flags: [],
    });
  });

  it('still gives the translation when the way back fails, after one request to one engine', async () => {
    const chat = await createChat(t.db, seat);
    libre.failNext('/translate', 503, 503);
    const res = await t.call(
      ROUND_TRIP,
      {
        session_id: chat.sessionId,
        text: 'The blue box arrives tomorrow.',
        source_lang: 'EN',
        target_lang: 'ES',
      },
      seat.token,
    );
    expect(res.code).toBe('000000');
    expect(res.data.translation.engine).toBe('apertium');
    expect(res.data.back_translation).toBeNull();
    expect(res.data.back_failure).toBe('unavailable');
    // Apertium translated it once and was not asked for the way back.
    expect(proxy.translated).toHaveLength(1);
  });

  it('goes back by the same engine when it is the only one offering the reverse pair', async () => {
    const chat = await createChat(alone.db, aloneSeat);
    const res = await alone.call(
      ROUND_TRIP,
      {
        session_id: chat.sessionId,
        text: 'The house is big',
        source_lang: 'EN',
        target_lang: 'ES',
      },
      aloneSeat.token,
    );
    expect(res.data).toEqual({
      translation: { text: 'La casa es grande', engine: 'apertium', from_memory: false },
      back_translation: { text: 'The house is big', engine: 'apertium', from_memory: false },
      back_failure: null,
      flags: [],
    });
    expect(proxy.translated).toHaveLength(2);
  });
});

describe('what a round trip flags', () => {
  it('a name, an amount or a negation that one side lost; a number that one side added', () => {
    expect(
      roundTripFlags(
        'We do not charge $5 for the Zentrox lamp.',
        'Cobramos $5 por la lámpara.',
        'We charge $5 for the lamp 3.',
        'EN',
        'ES',
      ),
    ).toEqual([
      { kind: 'name', value: 'Zentrox', change: 'lost', stage: 'translation' },
      { kind: 'number', value: '3', change: 'added', stage: 'back_translation' },
      { kind: 'negation', value: 'not', change: 'lost', stage: 'translation' },
    ]);
    expect(
      roundTripFlags(
        'Write to ana@example.com by 2026-05-04.',
        'Escribe a ana@example.com antes del 2026-05-04.',
        'Write to ana@example.com before the.',
        'EN',
        'ES',
      ),
    ).toEqual([{ kind: 'date', value: '2026-05-04', change: 'lost', stage: 'back_translation' }]);
    // A sentence's first word, a day, "I", and a capital the engine added are no names.
    expect(
      roundTripFlags(
        'Thanks, I will call on Monday.',
        'Gracias, Llamaré el lunes.',
        null,
        'EN',
        'ES',
      ),
    ).toEqual([]);
  });
});
