import { baseLanguage, type TranslationLanguageCode } from '@parley/protocol';
import { failureOf, parseJson, requestWithRetry, type HttpPolicy } from './http.js';
import { LISTED_CODES } from './languages.js';
import {
  Cached,
  TranslationProviderError,
  type ProviderLanguages,
  type ProviderTranslation,
  type SourceLanguage,
  type TranslationProvider,
} from './provider.js';

/** APY translates one text per request; this many run at once. */
const CONCURRENCY = 4;
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
    const out: ProviderTranslation[] = new Array(texts.length);
    let next = 0;
    const worker = async () => {
      while (next < texts.length) {
        const i = next++;
        out[i] = { text: await this.translateOne(texts[i]!, pair, signal), detectedSource: null };
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, texts.length) }, worker));
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
