import type { EngineOffer, TranslationLanguageCode } from '@parley/protocol';
import { createStore, useStore } from '../../lib/create-store';
import type { SourceLanguage } from './translation-languages';

/**
 * A chat's language pair that nothing on the server can translate (422001: no engine offers
 * it; 501002: no engine configured). Kept for the page's life: asking again would only get
 * the same answer, so no request goes out for that chat and pair until the page reloads.
 */
export interface UnservedPair {
  source: SourceLanguage;
  target: TranslationLanguageCode;
  reason: 'unsupported_pair' | 'not_configured';
  offers: EngineOffer[];
  suggestedEngines: string[];
  /** The operator closed the notice; requests stay stopped. */
  dismissed: boolean;
}

const unserved = createStore<ReadonlyMap<number, UnservedPair>>(new Map());

export function markUnserved(sessionId: number, pair: Omit<UnservedPair, 'dismissed'>): void {
  unserved.set((m) => new Map(m).set(sessionId, { ...pair, dismissed: false }));
}

/** The chat's unserved pair when it is this one. */
export function unservedPair(
  sessionId: number,
  source: SourceLanguage,
  target: TranslationLanguageCode,
): UnservedPair | null {
  const entry = unserved.get().get(sessionId);
  return entry && entry.source === source && entry.target === target ? entry : null;
}

/** The notice shows again (the operator asked for a translation once more). */
export function showUnserved(sessionId: number): void {
  const entry = unserved.get().get(sessionId);
  if (entry?.dismissed)
    unserved.set((m) => new Map(m).set(sessionId, { ...entry, dismissed: false }));
}

export function dismissUnserved(sessionId: number): void {
  const entry = unserved.get().get(sessionId);
  if (entry) unserved.set((m) => new Map(m).set(sessionId, { ...entry, dismissed: true }));
}

/** A translation of the chat worked: whatever pair was unserved is no longer the chat's. */
export function clearUnserved(sessionId: number): void {
  if (unserved.get().has(sessionId)) {
    unserved.set((m) => {
      const next = new Map(m);
      next.delete(sessionId);
      return next;
    });
  }
}

export function useUnservedPair(sessionId: number): UnservedPair | null {
  return useStore(unserved, (m) => m.get(sessionId) ?? null);
}
