import {
  DEFAULT_REPLY_FILTER,
  STORAGE_KEPT_ON_LOGOUT,
  STORAGE_KEYS,
  TRANSLATION_CACHE_MINUTES,
  TRANSLATION_DEFAULTS,
  type Group,
  type SessionItem,
  type StorageKey,
  type UiLanguage,
  type UserInfo,
} from '@parley/protocol';

export type ThemeSetting = 'light' | 'dark' | 'system';
export type SizeSetting = 'sm' | 'md' | 'lg';

/** One translated incoming message (features/translation), keyed by chat and message. */
export interface TranslationHistoryEntry {
  msg_id: number;
  session_id: number;
  /** The translation shown under the original. */
  text: string;
  /** The language it was translated into (the targetLanguage of the time). */
  lang: string;
  /** When it was translated (epoch ms); dropped after cacheTime minutes. */
  at: number;
  /** The engine that made it (null: nothing to translate; absent in older entries). */
  engine?: string | null;
}

export interface TranslateSettings {
  /** The customer's language, for chats whose own is not known (default EN). */
  sourceLanguage: string;
  /** The operator's language: incoming messages are translated into it (default ZH-HANS). */
  targetLanguage: string;
  isEnable: boolean;
  mode: string;
  /** Minutes a translation history entry is kept. */
  cacheTime: number;
  hisTranslateMsg: TranslationHistoryEntry[];
  /** The composer translates the operator's words into the customer's language (beyond the spec). */
  translateOutgoing?: boolean;
}

/** A recently opened chat of the tags strip (a snapshot of its session item). */
export type TagsViewEntry = SessionItem;

/** The value type of each locally stored item of the spec (section 3). */
export interface StoredItems {
  userInfo: UserInfo;
  reply: 0 | 1;
  language: UiLanguage;
  size: SizeSetting;
  theme: ThemeSetting;
  tagsView: TagsViewEntry[];
  translate: TranslateSettings;
  groupList: Group[];
  selectedGroup: Group;
}

/** The minimal Storage surface used, so tests can pass a Map-backed fake. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function backing(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readItem<K extends StorageKey>(
  key: K,
  store: StorageLike | null = backing(),
): StoredItems[K] | null {
  const raw = store?.getItem(STORAGE_KEYS[key]);
  if (raw == null) return null;
  try {
    return JSON.parse(raw) as StoredItems[K];
  } catch {
    return null;
  }
}

export function writeItem<K extends StorageKey>(
  key: K,
  value: StoredItems[K],
  store: StorageLike | null = backing(),
): void {
  try {
    store?.setItem(STORAGE_KEYS[key], JSON.stringify(value));
  } catch {
    // Quota or privacy mode: the app keeps working from memory.
  }
}

export function removeItem(key: StorageKey, store: StorageLike | null = backing()): void {
  store?.removeItem(STORAGE_KEYS[key]);
}

/** Removes every stored item of the spec except the translation settings. */
export function clearOnLogout(store: StorageLike | null = backing()): void {
  for (const key of Object.keys(STORAGE_KEYS) as StorageKey[]) {
    if (!STORAGE_KEPT_ON_LOGOUT.includes(key)) removeItem(key, store);
  }
}

export function readToken(store: StorageLike | null = backing()): string | null {
  const info = readItem('userInfo', store);
  return info && typeof info.token === 'string' && info.token ? info.token : null;
}

export function readReply(store: StorageLike | null = backing()): 0 | 1 {
  return readItem('reply', store) === 1 ? 1 : DEFAULT_REPLY_FILTER;
}

export const DEFAULT_TRANSLATE: TranslateSettings = {
  ...TRANSLATION_DEFAULTS,
  cacheTime: TRANSLATION_CACHE_MINUTES,
  hisTranslateMsg: [],
};

/** Makes sure the translation settings exist with the spec's defaults. */
export function ensureTranslateDefaults(store: StorageLike | null = backing()): TranslateSettings {
  const current = readItem('translate', store);
  const merged = { ...DEFAULT_TRANSLATE, ...(current ?? {}) };
  if (!Array.isArray(merged.hisTranslateMsg)) merged.hisTranslateMsg = [];
  if (JSON.stringify(merged) !== JSON.stringify(current)) writeItem('translate', merged, store);
  return merged;
}
