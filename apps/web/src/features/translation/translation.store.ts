import {
  TRANSLATION_CACHE_MINUTES,
  TRANSLATION_LANGUAGE_CODES,
  TRANSLATION_MODES,
  type TranslationLanguageCode,
  type TranslationMode,
} from '@parley/protocol';
import { createStore, useStore, type Store } from '../../lib/create-store';
import {
  DEFAULT_TRANSLATE,
  readItem,
  writeItem,
  type StorageLike,
  type TranslateSettings,
} from '../../lib/storage';
import {
  addEntries,
  clearOldest,
  dropExpired,
  isHistoryEntry,
  type HistoryEntry,
} from './translation-history';

/** The settings as the console uses them: the stored item with its values checked. */
export interface TranslationSettings extends TranslateSettings {
  sourceLanguage: TranslationLanguageCode;
  targetLanguage: TranslationLanguageCode;
  mode: TranslationMode;
}

export type SettingsPatch = Partial<
  Pick<
    TranslationSettings,
    'sourceLanguage' | 'targetLanguage' | 'isEnable' | 'mode' | 'cacheTime' | 'translateOutgoing'
  >
>;

const isCode = (v: unknown): v is TranslationLanguageCode =>
  (TRANSLATION_LANGUAGE_CODES as readonly unknown[]).includes(v);

/** The stored item, with anything unknown or malformed back at its default. */
export function normalize(raw: Partial<TranslateSettings> | null): TranslationSettings {
  const d = DEFAULT_TRANSLATE;
  const r = raw ?? {};
  const cache = Number(r.cacheTime);
  return {
    sourceLanguage: isCode(r.sourceLanguage) ? r.sourceLanguage : (d.sourceLanguage as 'EN'),
    targetLanguage: isCode(r.targetLanguage) ? r.targetLanguage : (d.targetLanguage as 'ZH-HANS'),
    isEnable: typeof r.isEnable === 'boolean' ? r.isEnable : d.isEnable,
    mode: (TRANSLATION_MODES as readonly unknown[]).includes(r.mode)
      ? (r.mode as TranslationMode)
      : 'single',
    cacheTime: Number.isFinite(cache) && cache > 0 ? cache : TRANSLATION_CACHE_MINUTES,
    hisTranslateMsg: Array.isArray(r.hisTranslateMsg)
      ? r.hisTranslateMsg.filter(isHistoryEntry)
      : [],
    translateOutgoing: r.translateOutgoing === true,
  };
}

/**
 * The translation settings (spec section 3) in memory and in localStorage under `translate`
 * (kept across logout: lib/storage clearOnLogout). Every change is written at once; expired
 * history is dropped on load, on every write, and when `prune` is called.
 */
export function createTranslationStore(
  storage: StorageLike | null | undefined,
  now: () => number = Date.now,
) {
  const write = (s: TranslationSettings) => writeItem('translate', s, storage ?? null);
  const initial = normalize(readItem('translate', storage ?? null));
  initial.hisTranslateMsg = dropExpired(initial.hisTranslateMsg, initial.cacheTime, now());
  write(initial);
  const store: Store<TranslationSettings> = createStore(initial);

  const commit = (next: TranslationSettings) => {
    const pruned = {
      ...next,
      hisTranslateMsg: dropExpired(next.hisTranslateMsg, next.cacheTime, now()),
    };
    write(pruned);
    store.set(pruned);
  };

  return {
    store,
    get: store.get,
    update(patch: SettingsPatch) {
      commit({ ...store.get(), ...patch });
    },
    /** Keeps fresh translations (stamped now). */
    remember(entries: Omit<HistoryEntry, 'at'>[]) {
      if (entries.length === 0) return;
      const at = now();
      const s = store.get();
      commit({
        ...s,
        hisTranslateMsg: addEntries(
          s.hisTranslateMsg,
          entries.map((e) => ({ ...e, at })),
        ),
      });
    },
    /** Drops the `count` oldest translations, or all of them without a count. */
    clear(count?: number) {
      const s = store.get();
      commit({
        ...s,
        hisTranslateMsg: count === undefined ? [] : clearOldest(s.hisTranslateMsg, count),
      });
    },
    /** Drops what has expired by now (the console calls it now and then). */
    prune() {
      const s = store.get();
      const kept = dropExpired(s.hisTranslateMsg, s.cacheTime, now());
      if (kept.length !== s.hisTranslateMsg.length) commit(s);
    },
  };
}

function browserStorage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export const translation = createTranslationStore(browserStorage());

export function useTranslationSettings<S>(select: (s: TranslationSettings) => S): S {
  return useStore(translation.store, select);
}
