import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { adminCall, createAdmin } from './admin-helpers.js';
import { LocalDeepl } from './engine-servers.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';

// Two instances on one database find DeepL's glossary behind at the same moment (the local
// DeepL holds their glossary requests until both are in): DeepL ends up holding one glossary,
// the one the database names, with the newest version's dictionaries; none is left behind.

const TEXT_V2 = '/v1/seat/chat/translate/text_v2';
const GLOSSARIES = '/v3/glossaries';

let deepl: LocalDeepl;
let config: Config;
let cleanup: () => Promise<void>;
let a: TestApp;
let b: TestApp;
let admin: string;
let seat: SeatFixture;

async function instance(): Promise<TestApp> {
  const app = await buildApp(config);
  await app.ready();
  return testAppOf(app, config);
}

beforeAll(async () => {
  deepl = await new LocalDeepl('instances-key:fx').start();
  ({ config, cleanup } = await createTestDatabaseConfig({
    translation: {
      providers: [{ name: 'deepl', authKey: 'instances-key:fx', apiUrl: deepl.url }],
      timeoutMs: 10_000,
      retries: 0,
      retryDelayMs: 5,
    },
  }));
  a = await instance();
  b = await instance();
  admin = await createAdmin(a, 'glossary-instances-owner');
  seat = await createSeat(a, 'glossary-instances-seat');
}, 60_000);
afterAll(async () => {
  await a?.app.close();
  await b?.app.close();
  await deepl?.stop();
  await cleanup?.();
});

async function translate(on: TestApp, text: string): Promise<string> {
  const res = await on.call(
    TEXT_V2,
    { texts: [text], source_lang: 'EN', target_lang: 'ES', direction: 'outgoing' },
    seat.token,
  );
  expect(res.code, res.raw).toBe('000000');
  return (res.data as { translations: { text: string }[] }).translations[0]!.text;
}

async function addFixed(term: string, translation: string) {
  const res = await adminCall(
    a,
    '/v1/admin/glossary/add',
    { kind: 'fixed', term, translation, source_lang: 'EN', target_lang: 'ES' },
    admin,
  );
  expect(res.code, res.raw).toBe('000000');
  return res.data.version;
}

async function stored() {
  return a.db.selectFrom('glossary_state').selectAll().executeTakeFirstOrThrow();
}

/** Both instances translate while DeepL holds both glossary creations until both came. */
async function translateOnBothAtOnce(text: string) {
  const first = deepl.holdNext(GLOSSARIES);
  const second = deepl.holdNext(GLOSSARIES);
  const answers = Promise.all([translate(a, text), translate(b, text)]);
  await Promise.all([first.arrived, second.arrived]);
  first.release();
  second.release();
  return answers;
}

describe("DeepL's glossary made by two instances at once", () => {
  it('one glossary is kept, the one stored; the other instance deletes its own', async () => {
    const route = await adminCall(
      a,
      '/v1/admin/engine_routes/set',
      { source_lang: 'EN', target_lang: 'ES', engines: ['deepl'] },
      admin,
    );
    expect(route.code, route.raw).toBe('000000');
    const version = await addFixed('order', 'encomienda');

    const texts = await translateOnBothAtOnce('Your order is ready');
    for (const text of texts) expect(text).toContain('encomienda');
    // Both made one; one is left, and it is the one the database names.
    expect(deepl.calls(GLOSSARIES).filter((r) => r.method === 'POST')).toHaveLength(2);
    expect([...deepl.glossaries.keys()]).toEqual([(await stored()).deepl_glossary_id]);
    expect(JSON.parse((await stored()).deepl_state!)).toMatchObject({ version });

    // Both instances translate with it from now on, without asking DeepL for another.
    deepl.requests.length = 0;
    for (const on of [a, b]) {
      expect(await translate(on, `My order via ${on === a ? 'A' : 'B'}`)).toContain('encomienda');
    }
    expect(deepl.calls(GLOSSARIES)).toEqual([]);
    const used = deepl
      .calls('/v2/translate')
      .map((r) => (r.body as { glossary_id?: string }).glossary_id);
    expect(used).toEqual([(await stored()).deepl_glossary_id, (await stored()).deepl_glossary_id]);
  });

  it('after a change, both at once again: the new version stored, the old glossary deleted', async () => {
    const old = (await stored()).deepl_glossary_id;
    const version = await addFixed('invoice', 'factura');
    deepl.requests.length = 0;

    const texts = await translateOnBothAtOnce('Your order and invoice');
    for (const text of texts) expect(text).toMatch(/encomienda.*factura/);
    const state = await stored();
    expect(JSON.parse(state.deepl_state!)).toMatchObject({ version });
    expect([...deepl.glossaries.keys()]).toEqual([state.deepl_glossary_id]);
    expect(state.deepl_glossary_id).not.toBe(old);
    expect(deepl.glossaries.get(state.deepl_glossary_id!)!.name).toBe(
      `parley glossary v${version}`,
    );
  });

  it('an instance still at an older version never stores it over a newer one', async () => {
    // B starts making the glossary of version n and is held there.
    const older = await addFixed('parcel', 'paquete');
    deepl.requests.length = 0;
    const held = deepl.holdNext(GLOSSARIES);
    const onB = translate(b, 'The parcel');
    await held.arrived;
    // Meanwhile the list changes again and A makes and stores version n + 1.
    const newer = await addFixed('receipt', 'recibo');
    expect(await translate(a, 'The receipt')).toContain('recibo');
    const state = await stored();
    expect(JSON.parse(state.deepl_state!)).toMatchObject({ version: newer });
    // B's glossary comes: it lost, deletes its own, and its translation still has the term.
    held.release();
    expect(await onB).toContain('paquete');
    expect(await stored()).toEqual(state);
    expect([...deepl.glossaries.keys()]).toEqual([state.deepl_glossary_id]);
    const made = deepl.calls(GLOSSARIES).filter((r) => r.method === 'POST');
    expect(made.map((r) => (r.body as { name: string }).name).sort()).toEqual(
      [`parley glossary v${newer}`, `parley glossary v${older}`].sort(),
    );
    // And B, at the newer version now, uses the stored one.
    deepl.requests.length = 0;
    expect(await translate(b, 'The receipt and parcel')).toMatch(/recibo.*paquete/);
    const [call] = deepl.calls('/v2/translate');
    expect((call!.body as { glossary_id?: string }).glossary_id).toBe(state.deepl_glossary_id);
  });
});
