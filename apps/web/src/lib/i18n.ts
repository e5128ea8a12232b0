import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { UI_LANGUAGES, resolveUiLanguage, type UiLanguage } from '@parley/protocol';
import { readItem, writeItem } from './storage';

type Bundle = Record<string, Record<string, unknown>>;

const modules = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', {
  eager: true,
});

function buildResources(): Record<string, Bundle> {
  const resources: Record<string, Bundle> = {};
  for (const [path, mod] of Object.entries(modules)) {
    const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, lang, ns] = match as unknown as [string, string, string];
    (resources[lang] ??= {})[ns] = mod.default;
  }
  return resources;
}

export const NAMESPACES = [
  'common',
  'login',
  'chat',
  'groups',
  'errors',
  'messages',
  'outbox',
  'media',
  'session-actions',
  'message-actions',
  'profile',
  'add-chat',
  'batch',
  'quickReplies',
  'emoji',
  'search',
  'addressBook',
  'operator',
  'sandbox',
  'translation',
  'realtime',
] as const;

export function initialLanguage(): UiLanguage {
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? []);
  return resolveUiLanguage(readItem('language'), browser);
}

export function initI18n(): typeof i18n {
  const lng = initialLanguage();
  void i18n.use(initReactI18next).init({
    resources: buildResources(),
    lng,
    fallbackLng: 'en',
    supportedLngs: [...UI_LANGUAGES],
    load: 'currentOnly',
    lowerCaseLng: false,
    ns: [...NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  });
  document.documentElement.lang = lng;
  return i18n;
}

/** Switches the UI language at once (no reload) and remembers it. */
export function setUiLanguage(lang: UiLanguage): void {
  writeItem('language', lang);
  document.documentElement.lang = lang;
  void i18n.changeLanguage(lang);
}

/** The translation of an error code, or undefined when there is none. */
export function translateCode(code: string): string | undefined {
  const key = `errors:${code}`;
  return i18n.exists(key) ? i18n.t(key) : undefined;
}

export { i18n };
