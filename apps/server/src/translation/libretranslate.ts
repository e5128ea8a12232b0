import { baseLanguage, type TranslationLanguageCode } from '@parley/protocol';
import { failureOf, parseJson, requestWithRetry, type HttpPolicy } from './http.js';
import { LISTED_CODES, isListedCode } from './languages.js';
import {
  Cached,
  TranslationProviderError,
  chunk,
  type ProviderLanguages,
  type ProviderTranslation,
  type SourceLanguage,
  type TranslationProvider,
} from './provider.js';

/** Kept under the default limits of a LibreTranslate server (batch and character limits). */
const MAX_TEXTS = 50;
const MAX_CHARS = 5_000;
const LANGUAGES_TTL_MS = 60 * 60_000;

/**
 * LibreTranslate codes for the protocol's codes, best first: servers name Chinese and
 * Brazilian Portuguese differently across versions (zh / zh-Hans, zt / zh-Hant, pb / pt-BR).
 */
const CANDIDATES: Partial<Record<TranslationLanguageCode, string[]>> = {
  ZH: ['zh', 'zh-Hans'],
  'ZH-HANS': ['zh-Hans', 'zh'],
  'ZH-HANT': ['zh-Hant', 'zt'],
  'PT-BR': ['pt-BR', 'pb', 'pt'],
  'PT-PT': ['pt-PT', 'pt'],
  'EN-GB': ['en'],
  'EN-US': ['en'],
};
const REVERSE: Record<string, TranslationLanguageCode> = {
  zh: 'ZH',
  'zh-hans': 'ZH-HANS',
  'zh-hant': 'ZH-HANT',
  zt: 'ZH-HANT',
  pb: 'PT-BR',
  'pt-br': 'PT-BR',
  'pt-pt': 'PT-PT',
};

export function libreCandidates(code: TranslationLanguageCode): string[] {
  return CANDIDATES[code] ?? [code.toLowerCase()];
}

export function fromLibreCode(code: unknown): TranslationLanguageCode | null {
  if (typeof code !== 'string') return null;
  const lower = code.toLowerCase();
  if (REVERSE[lower]) return REVERSE[lower];
  const upper = code.toUpperCase();
  return isListedCode(upper) ? upper : null;
}

interface LibreLanguage {
  code: string;
  targets: string[];
}

/** LibreTranslate (https://docs.libretranslate.com): POST /translate, GET /languages. */
export class LibreTranslateProvider implements TranslationProvider {
  readonly name = 'libretranslate';
  private readonly languageList: Cached<LibreLanguage[]>;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | null,
    private readonly policy: HttpPolicy,
  ) {
    this.languageList = new Cached(LANGUAGES_TTL_MS, (signal) => this.fetchLanguages(signal));
  }

  /** The server's own codes for a pair, or null when it does not offer it. */
  private async resolve(
    source: SourceLanguage,
    target: TranslationLanguageCode,
    signal?: AbortSignal,
  ): Promise<{ source: string; target: string } | null> {
    // Without the list, the first candidate is the best guess.
    const list = await this.languageList.get(signal).catch(() => null);
    if (!list) {
      return {
        source: source === 'auto' ? 'auto' : libreCandidates(source)[0]!,
        target: libreCandidates(target)[0]!,
      };
    }
    const find = (codes: string[], wanted: string[]) =>
      wanted.map((w) => codes.find((c) => c.toLowerCase() === w.toLowerCase())).find(Boolean);
    if (source === 'auto') {
      const t = find(
        list.map((l) => l.code),
        libreCandidates(target),
      );
      return t ? { source: 'auto', target: t } : null;
    }
    for (const s of libreCandidates(source)) {
      const lang = list.find((l) => l.code.toLowerCase() === s.toLowerCase());
      const t = lang && find(lang.targets, libreCandidates(target));
      if (lang && t) return { source: lang.code, target: t };
    }
    return null;
  }

  async translate(
    texts: string[],
    source: SourceLanguage,
    target: TranslationLanguageCode,
    signal?: AbortSignal,
  ): Promise<ProviderTranslation[]> {
    const pair = await this.resolve(source, target, signal);
    if (!pair) {
      throw new TranslationProviderError(this.name, 'unsupported_pair', `${source} -> ${target}`);
    }
    const out: ProviderTranslation[] = [];
    for (const batch of chunk(texts, (t) => t.length, MAX_TEXTS, MAX_CHARS)) {
      out.push(...(await this.translateBatch(batch, pair, signal)));
    }
    return out;
  }

  private async translateBatch(
    texts: string[],
    pair: { source: string; target: string },
    signal?: AbortSignal,
  ): Promise<ProviderTranslation[]> {
    const body = {
      q: texts,
      source: pair.source,
      target: pair.target,
      format: 'text',
      ...(this.apiKey ? { api_key: this.apiKey } : {}),
    };
    const res = await requestWithRetry(
      this.name,
      `${this.baseUrl}/translate`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      this.policy,
      signal,
    );
    if (res.status === 400 && /not supported|language/i.test(res.body)) {
      throw new TranslationProviderError(this.name, 'unsupported_pair', res.body.slice(0, 200));
    }
    if (res.status !== 200) throw failureOf(this.name, res.status, res.body);
    const json = parseJson(this.name, res.body) as {
      translatedText?: unknown;
      detectedLanguage?: unknown;
    };
    const list = json.translatedText;
    if (!Array.isArray(list) || list.length !== texts.length) {
      throw new TranslationProviderError(this.name, 'bad_response', 'translations do not match');
    }
    const detected = Array.isArray(json.detectedLanguage) ? json.detectedLanguage : [];
    return list.map((text, i) => {
      if (typeof text !== 'string') {
        throw new TranslationProviderError(this.name, 'bad_response', 'translation is not text');
      }
      const d = detected[i] as { language?: unknown } | undefined;
      return { text, detectedSource: fromLibreCode(d?.language) };
    });
  }

  private async fetchLanguages(signal?: AbortSignal): Promise<LibreLanguage[]> {
    const res = await requestWithRetry(
      this.name,
      `${this.baseUrl}/languages`,
      { method: 'GET' },
      this.policy,
      signal,
    );
    if (res.status !== 200) throw failureOf(this.name, res.status, res.body);
    const list = parseJson(this.name, res.body);
    if (!Array.isArray(list)) {
      throw new TranslationProviderError(this.name, 'bad_response', 'language list expected');
    }
    return (list as Partial<LibreLanguage>[])
      .filter((l) => typeof l?.code === 'string')
      .map((l) => ({
        code: l.code!,
        targets: Array.isArray(l.targets) ? l.targets.filter((t) => typeof t === 'string') : [],
      }));
  }

  async languages(signal?: AbortSignal): Promise<ProviderLanguages> {
    const list = await this.languageList.get(signal);
    const pairs: ProviderLanguages['pairs'] = [];
    for (const source of LISTED_CODES) {
      const lang = list.find((l) =>
        libreCandidates(source).some((c) => c.toLowerCase() === l.code.toLowerCase()),
      );
      if (!lang) continue;
      const targets = new Set(lang.targets.map((t) => t.toLowerCase()));
      for (const target of LISTED_CODES) {
        if (baseLanguage(source) === baseLanguage(target)) continue;
        if (libreCandidates(target).some((c) => targets.has(c.toLowerCase()))) {
          pairs.push({ source, target });
        }
      }
    }
    return {
      autoDetect: true,
      sources: LISTED_CODES.filter((c) => pairs.some((p) => p.source === c)),
      targets: LISTED_CODES.filter((c) => pairs.some((p) => p.target === c)),
      pairs,
    };
  }
}
