import type { TranslationProvider } from './provider.js';

export interface TranslationMeter {
  /** One request to an engine: how many characters it carried and whether it answered. */
  engineCall(engine: string, characters: number, ok: boolean): void;
  /** Texts answered from the translation memory of this engine. */
  memoryHits(engine: string, texts: number): void;
}

/** The engine, counted: each translate request's characters and outcome go to the meter. */
export function meteredProvider(
  provider: TranslationProvider,
  meter: TranslationMeter,
): TranslationProvider {
  return {
    name: provider.name,
    ...(provider.glossary ? { glossary: provider.glossary } : {}),
    languages: (signal) => provider.languages(signal),
    async translate(texts, source, target, signal, options) {
      const characters = texts.reduce((sum, t) => sum + t.length, 0);
      try {
        const answer = await provider.translate(texts, source, target, signal, options);
        meter.engineCall(provider.name, characters, true);
        return answer;
      } catch (err) {
        meter.engineCall(provider.name, characters, false);
        throw err;
      }
    },
  };
}
