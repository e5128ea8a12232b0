import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOSSARY_MAX, GLOSSARY_TERM_MAX } from '@parley/protocol';
import { buildApp } from '../src/app.js';
import { adminCall, createAdmin } from './admin-helpers.js';
import { startApertium, type Apertium } from './apertium.js';
import { LocalDeepl, LocalLibreTranslate } from './engine-servers.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';

// The workspace's glossary on every engine: the real Apertium APY (eng-spa), and local DeepL
// (v2 translate + v3 glossaries) and LibreTranslate servers. The owner picks the engine of
// en>es per test through engine_routes/set, as the console does.

const TEXT_V2 = '/v1/seat/chat/translate/text_v2';
type Translation = { text: string; from_memory: boolean; engine: string | null };

let apy: Apertium;
let deepl: LocalDeepl;
let libre: LocalLibreTranslate;
let t: TestApp;
let admin: string;
let seat: SeatFixture;
const logs: { msg?: string; engine?: string }[] = [];

beforeAll(async () => {
  apy = await startApertium();
  deepl = await new LocalDeepl('glossary-key:fx').start();
  libre = await new LocalLibreTranslate().start();
  const { config, cleanup } = await createTestDatabaseConfig({
    translation: {
      providers: [
        { name: 'deepl', authKey: 'glossary-key:fx', apiUrl: deepl.url },
        { name: 'libretranslate', url: libre.url, apiKey: null },
        { name: 'apertium', url: apy.url },
      ],
      timeoutMs: 10_000,
      retries: 0,
      retryDelayMs: 5,
    },
    logLevel: 'info',
    logFormat: 'json',
  });
  const app = await buildApp(config, {
    logStream: { write: (line: string) => void logs.push(JSON.parse(line) as never) },
  });
  t = testAppOf(app, config, cleanup);
  admin = await createAdmin(t, 'glossary-owner');
  seat = await createSeat(t, 'glossary-seat');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await deepl?.stop();
  await libre?.stop();
  await apy?.stop();
});

async function route(engines: string[], source = 'EN', target = 'ES') {
  const res = await adminCall(
    t,
    '/v1/admin/engine_routes/set',
    { source_lang: source, target_lang: target, engines },
    admin,
  );
  expect(res.code, res.raw).toBe('000000');
}

async function translate(text: string, source = 'EN', target = 'ES'): Promise<Translation> {
  const res = await t.call(
    TEXT_V2,
    { texts: [text], source_lang: source, target_lang: target, direction: 'outgoing' },
    seat.token,
  );
  expect(res.code, res.raw).toBe('000000');
  return (res.data as { translations: Translation[] }).translations[0]!;
}

async function add(body: Record<string, unknown>) {
  return adminCall(t, '/v1/admin/glossary/add', body, admin);
}

async function clearGlossary() {
  const list = await adminCall(t, '/v1/admin/glossary/list', { page_size: 200 }, admin);
  for (const e of list.data.list) {
    await adminCall(t, '/v1/admin/glossary/delete', { entry_id: e.entry_id }, admin);
  }
}

describe('a term never translated', () => {
  it('applies at once, and the memory never serves what an older glossary translated', async () => {
    await route(['apertium']);
    const text = 'The blue house is open';
    const before = await translate(text);
    expect(before.engine).toBe('apertium');
    expect(before.text).not.toContain('blue house');
    expect((await translate(text)).from_memory).toBe(true);

    const added = await add({ kind: 'keep', term: 'Blue House' });
    expect(added.code, added.raw).toBe('000000');
    const kept = await translate(text);
    // Written as the customer wrote it, never sent to the engine.
    expect(kept.text).toContain('blue house');
    expect(kept.from_memory).toBe(false);
    expect(kept.engine).toBe('apertium');
    expect((await translate(text)).from_memory).toBe(true);

    // Removed: translated again at once, not the kept answer of the memory.
    await adminCall(t, '/v1/admin/glossary/delete', { entry_id: added.data.entry.entry_id }, admin);
    const again = await translate(text);
    expect(again.from_memory).toBe(false);
    expect(again.text).not.toContain('blue house');

    // Back again: a new version, so the answer of the first keep is not served either.
    await add({ kind: 'keep', term: 'blue house' });
    const back = await translate(text);
    expect(back.from_memory).toBe(false);
    expect(back.text).toContain('blue house');
    await clearGlossary();
  });

  it('keeps an order-number pattern, the longest of overlapping terms, and unknown scripts', async () => {
    await route(['apertium']);
    await adminCall(
      t,
      '/v1/admin/glossary/import',
      {
        entries: [
          { kind: 'pattern', term: 'ORD-######' },
          { kind: 'keep', term: 'Green' },
          { kind: 'keep', term: 'Green Tea House' },
          { kind: 'keep', term: '東京タワー' },
        ],
      },
      admin,
    );
    const out = await translate('Your ord-123456 from Green Tea House near 東京タワー is ready');
    expect(out.text).toContain('ord-123456');
    expect(out.text).toContain('Green Tea House');
    expect(out.text).toContain('東京タワー');
    // A pattern matches whole words only: one digit more is not an order number.
    const longer = await translate('Your ORD-1234567 is ready');
    expect(longer.text).toContain('ORD-1234567');
    await clearGlossary();
  });
});

describe('a fixed translation wins on every engine', () => {
  it('Apertium and LibreTranslate around the request, DeepL through its v3 glossary', async () => {
    const res = await add({
      kind: 'fixed',
      term: 'order',
      translation: 'encomienda',
      source_lang: 'EN',
      target_lang: 'ES',
    });
    expect(res.code, res.raw).toBe('000000');
    for (const engine of ['apertium', 'libretranslate', 'deepl']) {
      await route([engine]);
      deepl.requests.length = 0;
      const out = await translate('Your order is ready');
      expect(out.engine).toBe(engine);
      expect(out.text, engine).toContain('encomienda');
      expect(out.text, engine).not.toMatch(/\border\b/);
    }
    // DeepL got the term in context, with the glossary it holds.
    const [call] = deepl.calls('/v2/translate');
    expect(call!.body).toMatchObject({ text: ['Your order is ready'], source_lang: 'EN' });
    const id = (call!.body as { glossary_id: string }).glossary_id;
    expect(deepl.glossaries.get(id)?.dictionaries).toMatchObject([
      { source_lang: 'en', target_lang: 'es', entries: new Map([['order', 'encomienda']]) },
    ]);
  });

  it("keeps DeepL's glossary in step as the list changes", async () => {
    await route(['deepl']);
    await route(['deepl'], 'EN', 'DE');
    await add({
      kind: 'fixed',
      term: 'invoice',
      translation: 'Beleg',
      source_lang: 'EN',
      target_lang: 'DE',
    });
    const before = [...deepl.glossaries.keys()];
    deepl.requests.length = 0;
    expect((await translate('Your invoice', 'EN', 'DE')).text).toContain('Beleg');
    // A new glossary for the new version, the one it replaces deleted: DeepL holds one.
    expect(deepl.calls('/v3/glossaries').map((r) => r.method)).toEqual(['POST']);
    expect(deepl.glossaries.size).toBe(1);
    const [glossary] = [...deepl.glossaries.values()];
    expect(before).not.toContain(glossary!.glossary_id);
    expect(glossary!.dictionaries.map((d) => `${d.source_lang}>${d.target_lang}`).sort()).toEqual([
      'en>de',
      'en>es',
    ]);
    const list = await adminCall(t, '/v1/admin/glossary/list', { kind: 'fixed' }, admin);
    const invoice = list.data.list.find((e) => e.term === 'invoice')!;
    await adminCall(t, '/v1/admin/glossary/delete', { entry_id: invoice.entry_id }, admin);
    expect((await translate('Your order', 'EN', 'ES')).text).toContain('encomienda');
    expect(deepl.glossaries.size).toBe(1);
    const [next] = [...deepl.glossaries.values()];
    expect(next!.dictionaries.map((d) => `${d.source_lang}>${d.target_lang}`)).toEqual(['en>es']);
    expect(next!.name).toBe(`parley glossary v${list.data.version + 1}`);
    const state = await t.db.selectFrom('glossary_state').selectAll().executeTakeFirstOrThrow();
    expect(state.deepl_glossary_id).toBe(next!.glossary_id);
  });

  it('an engine that refuses the glossary: substituted instead, said once', async () => {
    await route(['deepl']);
    // DeepL lost the glossary (deleted in its console): the translation refuses the id.
    deepl.glossaries.clear();
    deepl.requests.length = 0;
    const before = logs.length;
    for (const text of ['My order', 'Another order']) {
      const out = await translate(text);
      expect(out.engine).toBe('deepl');
      expect(out.text).toContain('encomienda');
    }
    const said = logs.slice(before).filter((l) => l.msg?.startsWith('engine refused the glossary'));
    expect(said).toHaveLength(1);

    // A change of the list, and DeepL refuses glossaries altogether: still substituted, once.
    deepl.refuseGlossaries = 403;
    await add({ kind: 'keep', term: 'Acme' });
    const from = logs.length;
    for (const text of ['Acme order', 'Acme order two']) {
      const out = await translate(text);
      expect(out.text).toContain('encomienda');
      expect(out.text).toContain('Acme');
    }
    const told = logs.slice(from).filter((l) => l.msg?.startsWith('engine glossary could not'));
    expect(told).toHaveLength(1);
    deepl.refuseGlossaries = null;
  });

  it('an engine that is down: the next one, the terms intact', async () => {
    await route(['deepl', 'apertium']);
    deepl.failNext('/v2/translate', 503);
    const out = await translate('The Acme order of the green house');
    expect(out.engine).toBe('apertium');
    expect(out.text).toContain('Acme');
    expect(out.text).toContain('encomienda');
  });
});

describe('bad input to the glossary', () => {
  it('answers with codes and changes nothing', async () => {
    const { data: start } = await adminCall(t, '/v1/admin/glossary/list', {}, admin);
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'keep', term: 'x'.repeat(1024) }, '100001'],
      [{ kind: 'keep', term: 'a\u0000b' }, '100001'],
      [{ kind: 'keep', term: 'tab\there' }, '100001'],
      [{ kind: 'pattern', term: '**-#' }, '100001'],
      [{ kind: 'pattern', term: 'plain' }, '100001'],
      [
        { kind: 'fixed', term: 'order', translation: 'x', source_lang: 'EN', target_lang: 'EN-GB' },
        '100001',
      ],
      [{ kind: 'keep', term: 'ACME' }, '500002'],
    ];
    for (const [body, code] of cases) {
      const res = await add(body);
      expect(res.code, JSON.stringify(body)).toBe(code);
      expect(res.raw).not.toMatch(/stack/);
    }
    expect((await add({ kind: 'keep', term: 'x'.repeat(GLOSSARY_TERM_MAX) })).code).toBe('000000');
    const engine = await adminCall(
      t,
      '/v1/admin/engine_routes/set',
      { source_lang: 'EN', target_lang: 'FR', engines: ['google'] },
      admin,
    );
    expect(engine.code).toBe('422003');
    expect(engine.data).toEqual({ engines: ['deepl', 'libretranslate', 'apertium'] });
    const { data: end } = await adminCall(t, '/v1/admin/glossary/list', {}, admin);
    expect(end.entries).toBe(start.entries + 1);
  });

  it(`holds ${GLOSSARY_MAX} entries, translates with them, and refuses one more`, async () => {
    await clearGlossary();
    await route(['apertium']);
    const entries = Array.from({ length: GLOSSARY_MAX }, (_, i) => ({
      kind: 'keep' as const,
      term: `Brand${i}`,
    }));
    const res = await adminCall(t, '/v1/admin/glossary/import', { entries }, admin);
    expect(res.code, res.raw.slice(0, 300)).toBe('000000');
    expect(res.data.added).toBe(GLOSSARY_MAX);
    const out = await translate('The house of Brand9999 and Brand17 is open');
    expect(out.text).toContain('Brand9999');
    expect(out.text).toContain('Brand17');

    const { data: full } = await adminCall(t, '/v1/admin/glossary/list', {}, admin);
    expect((await add({ kind: 'keep', term: 'One more' })).code).toBe('500003');
    const over = await adminCall(
      t,
      '/v1/admin/glossary/import',
      {
        entries: [
          { kind: 'keep', term: 'Brand1' },
          { kind: 'keep', term: 'Another' },
        ],
      },
      admin,
    );
    expect(over.code).toBe('500003');
    const { data: after } = await adminCall(t, '/v1/admin/glossary/list', {}, admin);
    expect(after.entries).toBe(GLOSSARY_MAX);
    expect(after.version).toBe(full.version);
  }, 60_000);

  it('records every change in the audit log', async () => {
    const audit = await adminCall(t, '/v1/admin/audit/list', { target_type: 'glossary' }, admin);
    const actions = new Set(audit.data.list.map((e) => e.action));
    expect(actions).toEqual(new Set(['glossary.add', 'glossary.delete', 'glossary.import']));
    const routes = await adminCall(
      t,
      '/v1/admin/audit/list',
      { action: 'engine_route.set' },
      admin,
    );
    expect(routes.data.list[0]!.after).toMatchObject({ source_lang: 'EN', target_lang: 'ES' });
  });
});
