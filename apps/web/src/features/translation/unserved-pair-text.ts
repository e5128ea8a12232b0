import { TRANSLATION_LANGUAGES, baseLanguage, type EngineOffer } from '@parley/protocol';

/** Language pairs named at most per engine; the rest is counted. */
const PAIRS_NAMED = 4;

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A language's name without its variant ("English" for EN, EN-GB and EN-US). */
function baseName(code: string, uiLanguage: string): string {
  const base = baseLanguage(code);
  const bcp47 = TRANSLATION_LANGUAGES.find((l) => l.code === base)?.bcp47 ?? base;
  try {
    return new Intl.DisplayNames([uiLanguage], { type: 'language' }).of(bcp47) ?? base;
  } catch {
    return base;
  }
}

/**
 * What one engine translates, briefly: its pairs by language with both directions as one
 * ("English ↔ Spanish"), or the number of its languages when any goes to any.
 */
export function offerSummary(offer: EngineOffer, uiLanguage: string, t: Translate): string {
  if (!offer.pairs) {
    const count = new Set([...offer.sources, ...offer.targets].map(baseLanguage)).size;
    return t('translation:engineLanguages', { count });
  }
  const pairs = new Set(
    offer.pairs.map((p) => `${baseLanguage(p.source)}>${baseLanguage(p.target)}`),
  );
  const named: string[] = [];
  const seen = new Set<string>();
  for (const pair of pairs) {
    const [a, b] = pair.split('>') as [string, string];
    if (seen.has(pair)) continue;
    seen.add(pair);
    const both = pairs.has(`${b}>${a}`);
    if (both) seen.add(`${b}>${a}`);
    named.push(`${baseName(a, uiLanguage)} ${both ? '↔' : '→'} ${baseName(b, uiLanguage)}`);
  }
  if (named.length === 0) return t('translation:engineNoPairs');
  const shown = named.slice(0, PAIRS_NAMED).join(', ');
  return named.length > PAIRS_NAMED
    ? `${shown} ${t('translation:morePairs', { count: named.length - PAIRS_NAMED })}`
    : shown;
}

/** "DeepL or LibreTranslate" in the UI language. */
export function orList(items: string[], uiLanguage: string): string {
  try {
    return new Intl.ListFormat(uiLanguage, { type: 'disjunction' }).format(items);
  } catch {
    return items.join(' / ');
  }
}
