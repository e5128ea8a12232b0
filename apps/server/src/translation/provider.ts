import type { TranslationFailureReason, TranslationLanguageCode } from '@parley/protocol';

export type SourceLanguage = TranslationLanguageCode | 'auto';

export interface ProviderTranslation {
  text: string;
  /** A code of the protocol's list; null when the engine did not detect one it maps to. */
  detectedSource: TranslationLanguageCode | null;
}

export interface ProviderLanguages {
  /** The engine can detect the source language itself. */
  autoDetect: boolean;
  sources: TranslationLanguageCode[];
  targets: TranslationLanguageCode[];
  /** The pairs offered; null when every source goes to every (other) target. */
  pairs: { source: TranslationLanguageCode; target: TranslationLanguageCode }[] | null;
}

/** Fixed translations of one pair (base codes, EN, DE) an engine's own glossary holds. */
export interface GlossaryDictionary {
  source: string;
  target: string;
  entries: [term: string, translation: string][];
}

/**
 * An engine that keeps a glossary of its own (DeepL's v3 glossaries). A glossary is never
 * edited once made: each version of the workspace's glossary gets a new one, so an id always
 * names exactly one version's dictionaries, whichever instance made it
 * (modules/translation/glossary.service.ts).
 */
export interface EngineGlossary {
  /** Makes a glossary holding exactly these dictionaries, named `name`; its id. Throws TranslationProviderError. */
  create(name: string, dictionaries: GlossaryDictionary[], signal?: AbortSignal): Promise<string>;
  /** Deletes one; one already gone is no error. Throws TranslationProviderError. */
  remove(id: string, signal?: AbortSignal): Promise<void>;
}

export interface TranslateOptions {
  /** The engine's own glossary to apply (EngineGlossary); needs an explicit source. */
  glossaryId?: string;
}

/** A translation engine: DeepL, LibreTranslate, Apertium APY. */
export interface TranslationProvider {
  readonly name: string;
  /** Present when the engine applies fixed translations itself (DeepL). */
  readonly glossary?: EngineGlossary;
  /**
   * One translation per text, in order, in as few requests as the engine's API allows.
   * Throws TranslationProviderError. All or nothing: DeepL and LibreTranslate answer a request
   * whole or not at all (no per-text error), so a failure fails the call and the service hands
   * every pending text to the next engine; nothing of the failed call is remembered.
   */
  translate(
    texts: string[],
    source: SourceLanguage,
    target: TranslationLanguageCode,
    signal?: AbortSignal,
    options?: TranslateOptions,
  ): Promise<ProviderTranslation[]>;
  languages(signal?: AbortSignal): Promise<ProviderLanguages>;
}

/** Why an engine could not answer; every kind lets the next engine try. */
export class TranslationProviderError extends Error {
  constructor(
    readonly engine: string,
    readonly reason: TranslationFailureReason,
    message: string,
  ) {
    super(`${engine}: ${message}`);
    this.name = 'TranslationProviderError';
  }
}

/** The engine would not use the glossary it was given (gone, or not for this pair). */
export class GlossaryRefusedError extends TranslationProviderError {
  constructor(engine: string, message: string) {
    super(engine, 'bad_response', message);
    this.name = 'GlossaryRefusedError';
  }
}

/** Splits `items` into chunks of at most `maxItems` and `maxChars` (one long item is alone). */
export function chunk<T>(
  items: T[],
  size: (item: T) => number,
  maxItems: number,
  maxChars: number,
): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const item of items) {
    const n = size(item);
    if (current.length > 0 && (current.length >= maxItems || chars + n > maxChars)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += n;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Caches a successful answer for `ttlMs`; concurrent callers share one request. */
export class Cached<T> {
  private value: { at: number; promise: Promise<T> } | null = null;
  constructor(
    private readonly ttlMs: number,
    private readonly load: (signal?: AbortSignal) => Promise<T>,
  ) {}

  get(signal?: AbortSignal): Promise<T> {
    const now = Date.now();
    if (this.value && now - this.value.at < this.ttlMs) return this.value.promise;
    const promise = this.load(signal);
    const entry = { at: now, promise };
    this.value = entry;
    // A failure is not remembered: the next caller asks again.
    promise.catch(() => {
      if (this.value === entry) this.value = null;
    });
    return promise;
  }
}
