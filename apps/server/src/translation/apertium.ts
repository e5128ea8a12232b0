import { baseLanguage, type TranslationLanguageCode } from '@parley/protocol';
import { failureOf, parseJson, requestWithRetry, type HttpPolicy } from './http.js';
import { LISTED_CODES } from './languages.js';
import {
  Cached,
  TranslationProviderError,
  chunk,
  type ProviderLanguages,
  type ProviderTranslation,
  type SourceLanguage,
  type TranslationProvider,
} from './provider.js';

/**
 * APY takes one text per request, so a batch is joined into one text (see translateJoined).
 * APY cuts a request into at most 10 pieces of 501 to 1,000 characters when busy (4 KiB when
 * not) and drops what is left, so a joined request stays well under 5,000 characters.
 */
const MAX_TEXTS = 100;
const MAX_CHARS = 4_500;
/** Joined requests at once (APY runs one pipeline per pair: more would only queue there). */
const JOINED_CONCURRENCY = 2;
/** Requests at once when a batch goes one text per request. */
const CONCURRENCY = 4;
/** What the separator adds per text, for the size of a joined request. */
const SEPARATOR_CHARS = 5;
const PAIRS_TTL_MS = 10 * 60_000;

/** ISO 639-3 codes (Apertium's) of the protocol's base languages. */
const ISO3: Record<string, string> = {
  AR: 'ara',
  BG: 'bul',
  BN: 'ben',
  CS: 'ces',
  DA: 'dan',
  DE: 'deu',
  EL: 'ell',
  EN: 'eng',
  ES: 'spa',
  ET: 'est',
  FA: 'fas',
  FI: 'fin',
  FR: 'fra',
  HE: 'heb',
  HI: 'hin',
  HU: 'hun',
  ID: 'ind',
  IT: 'ita',
  JA: 'jpn',
  KO: 'kor',
  LT: 'lit',
  LV: 'lav',
  MS: 'msa',
  NB: 'nob',
  NL: 'nld',
  PL: 'pol',
  PT: 'por',
  RO: 'ron',
  RU: 'rus',
  SK: 'slk',
  SL: 'slv',
  SV: 'swe',
  SW: 'swa',
  TH: 'tha',
  TL: 'tgl',
  TR: 'tur',
  UK: 'ukr',
  UR: 'urd',
  VI: 'vie',
  ZH: 'zho',
};

/**
 * Apertium codes for a protocol code, best first: a variant names its region or script
 * (EN-US -> eng_US, PT-BR -> por_BR, ZH-HANS -> zho_Hans) and falls back to the base.
 */
export function apertiumCandidates(code: TranslationLanguageCode): string[] {
  const [base, variant] = code.split('-') as [string, string | undefined];
  const iso = ISO3[base];
  if (!iso) return [];
  if (!variant) return [iso];
  const suffix = variant.length === 4 ? variant[0] + variant.slice(1).toLowerCase() : variant;
  return [`${iso}_${suffix}`, iso];
}

interface Pair {
  source: string;
  target: string;
}

/** A paragraph with a lone full stop, its newline run longer than any in `texts` (at least 2). */
export function separatorFor(texts: string[]): string {
  let longest = 0;
  for (const text of texts) {
    for (const run of text.match(/\n+/g) ?? []) longest = Math.max(longest, run.length);
  }
  const newlines = '\n'.repeat(Math.max(2, longest + 1));
  return `${newlines}.${newlines}`;
}

/** Runs `work` on every item, at most `limit` at once. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Apertium APY (https://wiki.apertium.org/wiki/Apertium-apy): /translate, /listPairs. */
export class ApertiumProvider implements TranslationProvider {
  readonly name = 'apertium';
  private readonly pairList: Cached<Pair[]>;

  constructor(
    private readonly baseUrl: string,
    private readonly policy: HttpPolicy,
  ) {
    this.pairList = new Cached(PAIRS_TTL_MS, (signal) => this.fetchPairs(signal));
  }

  private static has(pairs: Pair[], source: string, target: string) {
    return pairs.some((p) => p.source === source && p.target === target);
  }

  /** The installed pair for two protocol codes, best variant first. */
  private static find(
    pairs: Pair[],
    source: TranslationLanguageCode,
    target: TranslationLanguageCode,
  ): Pair | null {
    for (const t of apertiumCandidates(target)) {
      for (const s of apertiumCandidates(source)) {
        if (ApertiumProvider.has(pairs, s, t)) return { source: s, target: t };
      }
    }
    return null;
  }

  /**
   * APY cannot detect a language, so `auto` works only when one installed language translates
   * into the target: that one is then the source (reported as not detected).
   */
  private static resolve(
    pairs: Pair[],
    source: SourceLanguage,
    target: TranslationLanguageCode,
  ): Pair | null {
    if (source !== 'auto') return ApertiumProvider.find(pairs, source, target);
    const candidates = LISTED_CODES.filter((s) => !s.includes('-'))
      .map((s) => ApertiumProvider.find(pairs, s, target))
      .filter((p): p is Pair => p !== null);
    return candidates.length === 1 ? candidates[0]! : null;
  }

  async translate(
    texts: string[],
    source: SourceLanguage,
    target: TranslationLanguageCode,
    signal?: AbortSignal,
  ): Promise<ProviderTranslation[]> {
    const pairs = await this.pairList.get(signal);
    const pair = ApertiumProvider.resolve(pairs, source, target);
    if (!pair) {
      throw new TranslationProviderError(this.name, 'unsupported_pair', `${source} -> ${target}`);
    }
    // Whitespace around a text is kept aside: only its core goes out, and a core never starts
    // or ends with a newline, so the separator's newlines are all the separator's own.
    const parts = texts.map((text) => {
      const lead = /^\s*/u.exec(text)![0];
      const core = text.slice(lead.length).trimEnd();
      return { lead, core, trail: text.slice(lead.length + core.length) };
    });
    const cores = parts.map((p, i) => ({ i, core: p.core })).filter((c) => c.core !== '');
    const done: string[] = parts.map((p) => p.core);
    const batches = chunk(cores, (c) => c.core.length + SEPARATOR_CHARS, MAX_TEXTS, MAX_CHARS);
    await pool(batches, JOINED_CONCURRENCY, async (batch) => {
      const own = batch.map((c) => c.core);
      const answers =
        (await this.translateJoined(own, pair, signal)) ??
        (await this.translateEach(own, pair, signal));
      batch.forEach((c, k) => (done[c.i] = answers[k]!));
    });
    return parts.map((p, i) => ({ text: p.lead + done[i]! + p.trail, detectedSource: null }));
  }

  /**
   * The texts in one request, joined by a paragraph that holds a lone full stop: a paragraph
   * break ends a sentence, so no transfer rule reaches across it and each text is translated
   * as when sent alone; the full stop is where APY prefers to cut a long request into pieces.
   * The separator's newline run is longer than any in the texts, so no text contains it.
   * Null when the answer does not split back into as many parts, cleanly: the caller then
   * sends this batch one text per request.
   */
  private async translateJoined(
    texts: string[],
    pair: Pair,
    signal?: AbortSignal,
  ): Promise<string[] | null> {
    if (texts.length === 1) return [await this.translateOne(texts[0]!, pair, signal)];
    const separator = separatorFor(texts);
    const answer = await this.translateOne(texts.join(separator), pair, signal);
    const split = answer.split(separator);
    if (
      split.length !== texts.length ||
      split.some((s) => s.startsWith('\n') || s.endsWith('\n'))
    ) {
      return null;
    }
    return split;
  }

  private async translateEach(texts: string[], pair: Pair, signal?: AbortSignal) {
    const out: string[] = new Array(texts.length);
    await pool(
      texts.map((text, i) => ({ text, i })),
      CONCURRENCY,
      async ({ text, i }) => (out[i] = await this.translateOne(text, pair, signal)),
    );
    return out;
  }

  private async translateOne(text: string, pair: Pair, signal?: AbortSignal): Promise<string> {
    const form = new URLSearchParams({
      langpair: `${pair.source}|${pair.target}`,
      q: text,
      format: 'txt',
      // Unknown words come back as they are, without Apertium's `*` mark.
      markUnknown: 'no',
    });
    const res = await requestWithRetry(
      this.name,
      `${this.baseUrl}/translate`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      },
      this.policy,
      signal,
    );
    if (res.status === 400 && /pair/i.test(res.body)) {
      throw new TranslationProviderError(this.name, 'unsupported_pair', res.body.slice(0, 200));
    }
    if (res.status !== 200) throw failureOf(this.name, res.status, res.body);
    const json = parseJson(this.name, res.body) as {
      responseData?: { translatedText?: unknown };
    };
    const translated = json.responseData?.translatedText;
    if (typeof translated !== 'string') {
      throw new TranslationProviderError(this.name, 'bad_response', 'no translatedText');
    }
    return translated;
  }

  private async fetchPairs(signal?: AbortSignal): Promise<Pair[]> {
    const res = await requestWithRetry(
      this.name,
      `${this.baseUrl}/listPairs`,
      { method: 'GET' },
      this.policy,
      signal,
    );
    if (res.status !== 200) throw failureOf(this.name, res.status, res.body);
    const json = parseJson(this.name, res.body) as { responseData?: unknown };
    if (!Array.isArray(json.responseData)) {
      throw new TranslationProviderError(this.name, 'bad_response', 'pair list expected');
    }
    return (json.responseData as { sourceLanguage?: unknown; targetLanguage?: unknown }[])
      .filter((p) => typeof p?.sourceLanguage === 'string' && typeof p.targetLanguage === 'string')
      .map((p) => ({ source: p.sourceLanguage as string, target: p.targetLanguage as string }));
  }

  async languages(signal?: AbortSignal): Promise<ProviderLanguages> {
    const installed = await this.pairList.get(signal);
    const pairs: { source: TranslationLanguageCode; target: TranslationLanguageCode }[] = [];
    for (const source of LISTED_CODES) {
      for (const target of LISTED_CODES) {
        if (baseLanguage(source) === baseLanguage(target)) continue;
        if (ApertiumProvider.find(installed, source, target)) pairs.push({ source, target });
      }
    }
    return {
      autoDetect: false,
      sources: LISTED_CODES.filter((c) => pairs.some((p) => p.source === c)),
      targets: LISTED_CODES.filter((c) => pairs.some((p) => p.target === c)),
      pairs,
    };
  }
}
