/**
 * Facts survive translation: the corpus of bench/fixtures/translation-facts.json (customer
 * service sentences in English, Spanish and Portuguese, each with its numbers, prices, dates,
 * URLs, e-mails, phone numbers, order ids, emoji and @mentions listed by hand) goes through the
 * server's text_v2 with the real Apertium APY (eng-spa, spa-eng, es-pt: Debian's
 * apertium-eng-spa and apertium-es-pt) and through the local DeepL (API v2) and LibreTranslate
 * (1.x) servers of engine-servers.ts. Every fact must come out exactly as it went in.
 * bench/translation-facts.mjs prints the same figures.
 */
import { readFileSync } from 'node:fs';
import type { TranslationLanguageCode } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apertiumTranslation, startApertium, type Apertium } from './apertium.js';
import { LocalDeepl, LocalLibreTranslate } from './engine-servers.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

interface Sentence {
  lang: 'en' | 'es' | 'pt';
  text: string;
  facts: string[];
}
const CORPUS = (
  JSON.parse(
    readFileSync(
      new URL('../../../bench/fixtures/translation-facts.json', import.meta.url),
      'utf8',
    ),
  ) as { sentences: Sentence[] }
).sentences;

const PAIRS: {
  from: Sentence['lang'];
  source: TranslationLanguageCode;
  target: TranslationLanguageCode;
}[] = [
  { from: 'en', source: 'EN', target: 'ES' },
  { from: 'es', source: 'ES', target: 'EN' },
  { from: 'es', source: 'ES', target: 'PT' },
  { from: 'pt', source: 'PT', target: 'ES' },
];

const count = (text: string, fact: string) => text.split(fact).length - 1;

/** The facts a translation lost (held fewer times than its source), as "fact in: output". */
async function lostFacts(t: TestApp, token: string, pair: (typeof PAIRS)[number]) {
  const sentences = CORPUS.filter((s) => s.lang === pair.from);
  const lost: string[] = [];
  let facts = 0;
  for (let i = 0; i < sentences.length; i += 50) {
    const batch = sentences.slice(i, i + 50);
    const res = await t.call(
      '/v1/seat/chat/translate/text_v2',
      { texts: batch.map((s) => s.text), source_lang: pair.source, target_lang: pair.target },
      token,
    );
    expect(res.code).toBe('000000');
    batch.forEach((s, j) => {
      const out = res.data.translations[j]!.text;
      for (const fact of new Set(s.facts)) {
        facts += count(s.text, fact);
        const missing = count(s.text, fact) - count(out, fact);
        if (missing > 0) lost.push(`${fact} in: ${out}`);
      }
    });
  }
  return { facts, lost, sentences: sentences.length };
}

it('holds at least 200 sentences in English, Spanish and Portuguese, each fact in its text', () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(200);
  for (const lang of ['en', 'es', 'pt']) {
    expect(CORPUS.filter((s) => s.lang === lang).length).toBeGreaterThanOrEqual(60);
  }
  for (const s of CORPUS) for (const f of s.facts) expect(s.text).toContain(f);
});

describe('the real Apertium APY', () => {
  let apy: Apertium;
  let t: TestApp;
  let seat: SeatFixture;
  beforeAll(async () => {
    apy = await startApertium();
    t = await createTestApp({ translation: apertiumTranslation(apy) });
    seat = await createSeat(t, 'facts-apertium');
  });
  afterAll(async () => {
    await t?.close();
    await apy?.stop();
  });

  for (const pair of PAIRS) {
    it(`keeps 100 % of the facts, ${pair.source} -> ${pair.target}`, async () => {
      const { facts, lost, sentences } = await lostFacts(t, seat.token, pair);
      expect(sentences).toBeGreaterThanOrEqual(60);
      expect(facts).toBeGreaterThan(100);
      expect(lost).toEqual([]);
    });
  }
});

describe('the local DeepL (API v2) and LibreTranslate (1.x) servers', () => {
  let deepl: LocalDeepl;
  let libre: LocalLibreTranslate;
  const apps: TestApp[] = [];
  const seats: SeatFixture[] = [];
  beforeAll(async () => {
    deepl = await new LocalDeepl('facts-key:fx').start();
    libre = await new LocalLibreTranslate().start();
    const policy = { timeoutMs: 5_000, retries: 1, retryDelayMs: 5 };
    for (const provider of [
      { name: 'deepl' as const, authKey: 'facts-key:fx', apiUrl: deepl.url },
      { name: 'libretranslate' as const, url: libre.url, apiKey: null },
    ]) {
      const app = await createTestApp({ translation: { providers: [provider], ...policy } });
      apps.push(app);
      seats.push(await createSeat(app, `facts-${provider.name}`));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await deepl?.stop();
    await libre?.stop();
  });

  it('keep 100 % of the facts on every pair', async () => {
    for (const [i, app] of apps.entries()) {
      for (const pair of PAIRS) {
        const { lost } = await lostFacts(app, seats[i]!.token, pair);
        expect(lost).toEqual([]);
      }
    }
  });
});
