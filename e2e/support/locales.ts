import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './server';

/** The web app's translation files: apps/web/src/locales/<lang>/<feature>.json. */
const LOCALES_DIR = path.join(REPO_ROOT, 'apps/web/src/locales');

export const UI_LANGS = ['zh-CN', 'en', 'pt', 'ru'] as const;
export type UiLang = (typeof UI_LANGS)[number];

type Flat = Map<string, string>;
const cache = new Map<string, Flat>();

function flatten(prefix: string, value: unknown, out: Flat): void {
  if (typeof value === 'string') {
    out.set(prefix, value);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      flatten(prefix ? `${prefix}.${key}` : key, child, out);
    }
  }
}

/** Every string of one language, keyed `<file>.<nested.key>`. */
export function localeStrings(lang: UiLang): Flat {
  const cached = cache.get(lang);
  if (cached) return cached;
  if (!existsSync(LOCALES_DIR)) throw new Error(`${LOCALES_DIR} does not exist`);
  const dir = readdirSync(LOCALES_DIR).find((d) => d.toLowerCase() === lang.toLowerCase());
  if (!dir) throw new Error(`no locale directory for ${lang} in ${LOCALES_DIR}`);
  const flat: Flat = new Map();
  const full = path.join(LOCALES_DIR, dir);
  for (const file of readdirSync(full).sort()) {
    if (!file.endsWith('.json')) continue;
    const json: unknown = JSON.parse(readFileSync(path.join(full, file), 'utf8'));
    flatten(file.replace(/\.json$/, ''), json, flat);
  }
  cache.set(lang, flat);
  return flat;
}

/**
 * The translation into `lang` of an English UI text, found through the key that holds that
 * English text in the web app's locale files (so specs can be written with the English
 * texts of the spec and still check the other three languages). `ns` limits the search to
 * one locale file (e.g. `groups`); the text must name one translation, or this throws.
 */
export function tr(lang: UiLang, english: string, ns?: string): string {
  const en = localeStrings('en');
  const target = localeStrings(lang);
  const keys = [...en.entries()]
    .filter(([k, v]) => v === english && (ns === undefined || k.startsWith(`${ns}.`)))
    .map(([k]) => k);
  const where = ns === undefined ? 'the en locale' : `the en ${ns}.json`;
  if (keys.length === 0) throw new Error(`no key of ${where} holds the text "${english}"`);
  const missing = keys.filter((k) => !target.has(k));
  if (missing.length > 0) {
    throw new Error(`the ${lang} locale lacks the key(s) ${missing.join(', ')} ("${english}")`);
  }
  const translations = new Set(keys.map((k) => target.get(k)!));
  if (translations.size > 1) {
    throw new Error(
      `"${english}" is ambiguous in ${where} (${keys.join(', ')}): pass the locale file as ns`,
    );
  }
  return [...translations][0]!;
}
