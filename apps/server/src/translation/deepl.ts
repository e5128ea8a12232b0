import { baseLanguage, type TranslationLanguageCode } from '@parley/protocol';
import { failureOf, parseJson, requestWithRetry, type HttpPolicy } from './http.js';
import { LISTED_CODES, toListedCode } from './languages.js';
import {
  Cached,
  GlossaryRefusedError,
  TranslationProviderError,
  chunk,
  type EngineGlossary,
  type GlossaryDictionary,
  type TranslateOptions,
  type ProviderLanguages,
  type ProviderTranslation,
  type SourceLanguage,
  type TranslationProvider,
} from './provider.js';

/** DeepL's limits per /v2/translate call: 50 texts, 128 KiB of request (kept well under). */
const MAX_TEXTS = 50;
const MAX_BYTES = 100_000;
const LANGUAGES_TTL_MS = 60 * 60_000;

/** Keys of the Free plan end in `:fx` and only work on the Free endpoint. */
export function deeplBaseUrl(authKey: string, override: string | null = null): string {
  if (override) return override.replace(/\/+$/, '');
  return authKey.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com';
}

/** DeepL takes source languages without variant: EN-GB -> EN, PT-BR -> PT, ZH-HANS -> ZH. */
export function deeplSourceCode(code: TranslationLanguageCode): string {
  return baseLanguage(code);
}

interface DeeplLanguage {
  language: string;
}

/**
 * DeepL API v2 (https://developers.deepl.com/docs/api-reference/translate), with the v3
 * multilingual glossaries (https://developers.deepl.com/api-reference/multilingual-glossaries):
 * one glossary per version of the workspace's glossary, one dictionary per language pair, never
 * edited: the next version gets a new one and the one it replaces is deleted.
 */
export class DeeplProvider implements TranslationProvider {
  readonly name = 'deepl';
  readonly glossary: EngineGlossary = {
    create: (name, dictionaries, signal) => this.createGlossary(name, dictionaries, signal),
    remove: (id, signal) => this.removeGlossary(id, signal),
  };
  private readonly baseUrl: string;
  private readonly languageList: Cached<{ sources: string[]; targets: string[] }>;

  constructor(
    private readonly authKey: string,
    apiUrl: string | null,
    private readonly policy: HttpPolicy,
  ) {
    this.baseUrl = deeplBaseUrl(authKey, apiUrl);
    this.languageList = new Cached(LANGUAGES_TTL_MS, async (signal) => {
      const [sources, targets] = await Promise.all([
        this.fetchLanguages('source', signal),
        this.fetchLanguages('target', signal),
      ]);
      return { sources, targets };
    });
  }

  private headers(json: boolean): Record<string, string> {
    return {
      authorization: `DeepL-Auth-Key ${this.authKey}`,
      ...(json ? { 'content-type': 'application/json' } : {}),
    };
  }

  async translate(
    texts: string[],
    source: SourceLanguage,
    target: TranslationLanguageCode,
    signal?: AbortSignal,
    options: TranslateOptions = {},
  ): Promise<ProviderTranslation[]> {
    const out: ProviderTranslation[] = [];
    const batches = chunk(texts, (t) => Buffer.byteLength(t) + 16, MAX_TEXTS, MAX_BYTES);
    // One call after another, so a burst of chunks does not trip the rate limit.
    for (const batch of batches) {
      out.push(...(await this.translateBatch(batch, source, target, signal, options)));
    }
    return out;
  }

  private async translateBatch(
    texts: string[],
    source: SourceLanguage,
    target: TranslationLanguageCode,
    signal: AbortSignal | undefined,
    options: TranslateOptions,
  ): Promise<ProviderTranslation[]> {
    const body = {
      text: texts,
      target_lang: target,
      ...(source === 'auto' ? {} : { source_lang: deeplSourceCode(source) }),
      // Pieces between protected tokens keep their own case and punctuation.
      preserve_formatting: true,
      ...(options.glossaryId ? { glossary_id: options.glossaryId } : {}),
    };
    const res = await requestWithRetry(
      this.name,
      `${this.baseUrl}/v2/translate`,
      { method: 'POST', headers: this.headers(true), body: JSON.stringify(body) },
      this.policy,
      signal,
    );
    if (res.status === 456) {
      throw new TranslationProviderError(this.name, 'quota_exceeded', 'quota exceeded (HTTP 456)');
    }
    if (
      options.glossaryId &&
      (res.status === 400 || res.status === 404) &&
      /glossar/i.test(res.body)
    ) {
      throw new GlossaryRefusedError(this.name, `HTTP ${res.status}: ${res.body.slice(0, 200)}`);
    }
    if (res.status === 400 && /lang/i.test(res.body)) {
      throw new TranslationProviderError(this.name, 'unsupported_pair', res.body.slice(0, 200));
    }
    if (res.status !== 200) throw failureOf(this.name, res.status, res.body);
    const json = parseJson(this.name, res.body) as {
      translations?: { text?: unknown; detected_source_language?: unknown }[];
    };
    const list = json.translations;
    if (!Array.isArray(list) || list.length !== texts.length) {
      throw new TranslationProviderError(this.name, 'bad_response', 'translations do not match');
    }
    return list.map((t) => {
      if (typeof t.text !== 'string') {
        throw new TranslationProviderError(this.name, 'bad_response', 'translation is not text');
      }
      const detected =
        typeof t.detected_source_language === 'string' ? t.detected_source_language : null;
      return { text: t.text, detectedSource: toListedCode(detected) };
    });
  }

  private async glossaryCall(method: string, path: string, body?: unknown, signal?: AbortSignal) {
    return requestWithRetry(
      this.name,
      `${this.baseUrl}${path}`,
      {
        method,
        headers: this.headers(body !== undefined),
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      },
      this.policy,
      signal,
    );
  }

  private async createGlossary(
    name: string,
    dictionaries: GlossaryDictionary[],
    signal?: AbortSignal,
  ): Promise<string> {
    const dictionary = (d: GlossaryDictionary) => ({
      source_lang: d.source.toLowerCase(),
      target_lang: d.target.toLowerCase(),
      // TSV: terms hold no tab nor newline (the admin call refuses control characters).
      entries: d.entries.map(([a, b]) => `${a}\t${b}`).join('\n'),
      entries_format: 'tsv',
    });
    const res = await this.glossaryCall(
      'POST',
      '/v3/glossaries',
      { name, dictionaries: dictionaries.map(dictionary) },
      signal,
    );
    if (res.status !== 200 && res.status !== 201) throw failureOf(this.name, res.status, res.body);
    const id = (parseJson(this.name, res.body) as { glossary_id?: unknown }).glossary_id;
    if (typeof id !== 'string') {
      throw new TranslationProviderError(this.name, 'bad_response', 'no glossary_id');
    }
    return id;
  }

  private async removeGlossary(id: string, signal?: AbortSignal): Promise<void> {
    const path = `/v3/glossaries/${encodeURIComponent(id)}`;
    const res = await this.glossaryCall('DELETE', path, undefined, signal);
    if (res.status !== 204 && res.status !== 404) throw failureOf(this.name, res.status, res.body);
  }

  private async fetchLanguages(type: 'source' | 'target', signal?: AbortSignal) {
    const res = await requestWithRetry(
      this.name,
      `${this.baseUrl}/v2/languages?type=${type}`,
      { method: 'GET', headers: this.headers(false) },
      this.policy,
      signal,
    );
    if (res.status !== 200) throw failureOf(this.name, res.status, res.body);
    const list = parseJson(this.name, res.body);
    if (!Array.isArray(list)) {
      throw new TranslationProviderError(this.name, 'bad_response', 'language list expected');
    }
    return (list as DeeplLanguage[])
      .map((l) => (typeof l?.language === 'string' ? l.language.toUpperCase() : ''))
      .filter(Boolean);
  }

  async languages(signal?: AbortSignal): Promise<ProviderLanguages> {
    const { sources, targets } = await this.languageList.get(signal);
    const sourceSet = new Set(sources);
    const targetSet = new Set(targets);
    return {
      autoDetect: true,
      // A variant works as a source through its base (EN-GB -> EN).
      sources: LISTED_CODES.filter((c) => sourceSet.has(deeplSourceCode(c))),
      // DeepL still takes a base code (EN, PT) as target where it lists its variants.
      targets: LISTED_CODES.filter(
        (c) => targetSet.has(c) || (!c.includes('-') && targets.some((t) => t.startsWith(`${c}-`))),
      ),
      pairs: null,
    };
  }
}
