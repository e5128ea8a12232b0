/** Keys of the locally stored items of the spec (section 3); values are JSON. */
export const STORAGE_KEYS = {
  userInfo: 'userInfo',
  reply: 'reply',
  language: 'language',
  size: 'size',
  theme: 'theme',
  tagsView: 'tagsView',
  translate: 'translate',
  groupList: 'groupList',
  selectedGroup: 'selectedGroup',
} as const;
export type StorageKey = keyof typeof STORAGE_KEYS;
/** The only item that survives logout. */
export const STORAGE_KEPT_ON_LOGOUT: readonly StorageKey[] = ['translate'];
