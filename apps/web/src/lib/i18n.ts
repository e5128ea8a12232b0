import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { UI_LANGUAGES, resolveUiLanguage, type UiLanguage } from '@parley/protocol';
import { readItem, writeItem } from './storage';

type Bundle = Record<string, Record<string, unknown>>;

/** One module per UI language (locales/<lang>.ts), so one chunk: only the operator's is fetched. */
const languages = import.meta.glob<{ default: Record<string, Record<string, unknown>> }>(
  '../locales/*.ts',
);

async function loadBundle(lang: UiLanguage): Promise<Bundle> {
  const load = languages[`../locales/${lang}.ts`];
  if (!load) throw new Error(`no locale module for ${lang}`);
  const bundle: Bundle = {};
  for (const [path, resources] of Object.entries((await load()).default)) {
    const ns = /([^/]+)\.json$/.exec(path)?.[1];
    if (ns) bundle[ns] = resources;
  }
  return bundle;
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
  // The sandbox page's locale namespace (its folder's own words), not a test of the channel.
  // eslint-disable-next-line no-restricted-syntax
  'sandbox',
  'translation',
  'realtime',
  'team',
] as const;

export function initialLanguage(): UiLanguage {
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? []);
  return resolveUiLanguage(readItem('language'), browser);
}

/** Resolves once the operator's language is loaded: render after it, so no key shows raw. */
export async function initI18n(): Promise<typeof i18n> {
  const lng = initialLanguage();
  const bundle = await loadBundle(lng);
  await i18n.use(initReactI18next).init({
    resources: { [lng]: bundle },
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

/** Loads one language's strings of a namespace kept out of the language chunk. */
export type NamespaceLoader = (lang: UiLanguage) => Promise<Record<string, unknown>>;

/** Namespaces of a lazily loaded area (the admin console), loaded with it, not at start. */
const areaNamespaces = new Map<string, NamespaceLoader>();

async function ensureAreaNamespaces(lang: UiLanguage): Promise<void> {
  await Promise.all(
    [...areaNamespaces].map(async ([ns, load]) => {
      if (!i18n.hasResourceBundle(lang, ns)) {
        i18n.addResourceBundle(lang, ns, await load(lang), true, true);
      }
    }),
  );
}

/**
 * Adds a namespace whose strings live outside the language chunks (so /login and the console
 * do not download them): loaded now for the current language, and with every language switch
 * before the switch shows.
 */
export async function addAreaNamespace(ns: string, load: NamespaceLoader): Promise<void> {
  areaNamespaces.set(ns, load);
  await ensureAreaNamespaces(resolveUiLanguage(i18n.language, []));
}

/** Switches the UI language (no reload: once its chunk has arrived) and remembers it. */
export async function setUiLanguage(lang: UiLanguage): Promise<void> {
  if (!i18n.hasResourceBundle(lang, 'common')) {
    for (const [ns, resources] of Object.entries(await loadBundle(lang))) {
      i18n.addResourceBundle(lang, ns, resources, true, true);
    }
  }
  await ensureAreaNamespaces(lang);
  writeItem('language', lang);
  document.documentElement.lang = lang;
  await i18n.changeLanguage(lang);
}

/** The translation of an error code, or undefined when there is none. */
export function translateCode(code: string): string | undefined {
  const key = `errors:${code}`;
  return i18n.exists(key) ? i18n.t(key) : undefined;
}

export { i18n };
