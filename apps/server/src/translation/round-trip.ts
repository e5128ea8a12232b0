import {
  baseLanguage,
  type RoundTripFactKind,
  type RoundTripFlag,
  type TranslationLanguageCode,
} from '@parley/protocol';
import { protectedTokens } from './protect.js';

/**
 * What a reply must keep through its round trip, and what did not survive it. A fact is a
 * protected token (protect.ts: URLs, e-mails, @mentions, phone numbers, amounts, order ids,
 * numbers, emoji), a name, or a negation.
 *
 * A name is a word that starts with a capital letter and is not the first word of a sentence
 * (nor "I", nor a day or month, which English capitalises and other languages do not), or a
 * word of capitals (an acronym). Names are only flagged when lost: engines capitalise words
 * after a protected token now and then ("Y tendría"), which is no fact.
 *
 * A negation is a word of the language's short list (en, es, pt, fr, de, it, ru); flagged when
 * one text has one and the other has none. Languages without a list are not checked for it.
 */

type Fact = { kind: RoundTripFactKind; value: string };

const CURRENCY = /R\$|US\$|[$€£¥₹₽]|\b[A-Z]{3}\b/u;

function kindOf(token: string): RoundTripFactKind {
  if (/^(?:https?:\/\/|www\.)/iu.test(token)) return 'url';
  if (token.startsWith('@')) return 'mention';
  if (token.includes('@')) return 'email';
  if (token.startsWith('+')) return 'phone';
  if (!/\d/u.test(token)) return 'emoji';
  if (CURRENCY.test(token) && /\d/u.test(token)) return 'amount';
  if (/^\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?$|^\d{1,2}:\d{2}$/u.test(token)) return 'date';
  if (/\p{L}|#/u.test(token)) return 'code';
  return 'number';
}

const NOT_NAMES = new Set([
  'I',
  'OK',
  ...'Monday Tuesday Wednesday Thursday Friday Saturday Sunday'.split(' '),
  ...'January February March April May June July August September October November December'.split(
    ' ',
  ),
]);

/** Capitalised words that do not open a sentence, outside protected tokens. */
function names(text: string, tokens: string[]): string[] {
  let rest = text;
  for (const t of tokens) rest = rest.split(t).join(' \u0000 ');
  const out: string[] = [];
  // A sentence opens at the start, after . ! ? ¿ ¡ : or a line break.
  const re = /(^|[.!?¿¡:\n]\s*|\s)([\p{Lu}][\p{L}\p{M}'’-]*)/gu;
  for (const m of rest.matchAll(re)) {
    const opens = m.index === 0 || /[.!?¿¡:\n]/u.test(m[1]!);
    const word = m[2]!.replace(/['’-]+$/u, '');
    const acronym = word.length > 1 && word === word.toUpperCase();
    if ((opens && !acronym) || NOT_NAMES.has(word)) continue;
    out.push(word);
  }
  return out;
}

const NEGATIONS: Record<string, RegExp> = {
  EN: /\b(?:not|no|never|nothing|nobody|none|neither|nor|cannot|\w+n['’]t)\b/iu,
  ES: /(?<![\p{L}])(?:no|nunca|jamás|ni|nada|nadie|ningún|ninguna|ninguno|tampoco)(?![\p{L}])/iu,
  PT: /(?<![\p{L}])(?:não|nunca|jamais|nem|nada|ninguém|nenhum|nenhuma|tampouco)(?![\p{L}])/iu,
  FR: /(?<![\p{L}])(?:ne|n['’]|pas|jamais|rien|personne|aucun|aucune)(?![\p{L}])/iu,
  DE: /(?<![\p{L}])(?:nicht|kein|keine|keinen|keinem|keiner|nie|niemals|nichts|niemand)(?![\p{L}])/iu,
  IT: /(?<![\p{L}])(?:non|mai|niente|nulla|nessuno|nessuna)(?![\p{L}])/iu,
  RU: /(?<![\p{L}])(?:не|нет|никогда|ничего|никто|ни)(?![\p{L}])/iu,
};

/** The first negation word of a text, '' when it has none; null when the language has no list. */
function negation(text: string, language: TranslationLanguageCode): string | null {
  const re = NEGATIONS[baseLanguage(language)];
  if (!re) return null;
  return re.exec(text)?.[0] ?? '';
}

function factsOf(text: string): Fact[] {
  const tokens = protectedTokens(text);
  return [
    ...tokens.map((value) => ({ kind: kindOf(value), value })),
    ...names(text, tokens).map((value) => ({ kind: 'name' as const, value })),
  ];
}

function counts(facts: Fact[]): Map<string, { fact: Fact; n: number }> {
  const out = new Map<string, { fact: Fact; n: number }>();
  for (const fact of facts) {
    const key = `${fact.kind}\u0000${fact.value}`;
    const seen = out.get(key);
    if (seen) seen.n++;
    else out.set(key, { fact, n: 1 });
  }
  return out;
}

/**
 * The facts of `original` (the operator's, in `source`) that its `translation` (in `target`)
 * or the `back` translation (in `source`; null when there is none) lost or added.
 */
export function roundTripFlags(
  original: string,
  translation: string,
  back: string | null,
  source: TranslationLanguageCode,
  target: TranslationLanguageCode,
): RoundTripFlag[] {
  const flags: RoundTripFlag[] = [];
  const o = counts(factsOf(original));
  const t = counts(factsOf(translation));
  const b = back === null ? null : counts(factsOf(back));
  const n = (m: Map<string, { n: number }> | null, key: string) => m?.get(key)?.n ?? 0;
  for (const [key, { fact, n: count }] of o) {
    if (n(t, key) < count) flags.push({ ...fact, change: 'lost', stage: 'translation' });
    else if (b && n(b, key) < count) {
      flags.push({ ...fact, change: 'lost', stage: 'back_translation' });
    }
  }
  for (const [key, { fact, n: count }] of t) {
    if (fact.kind !== 'name' && count > n(o, key)) {
      flags.push({ ...fact, change: 'added', stage: 'translation' });
    }
  }
  if (b) {
    for (const [key, { fact, n: count }] of b) {
      if (fact.kind !== 'name' && count > n(o, key) && n(t, key) <= n(o, key)) {
        flags.push({ ...fact, change: 'added', stage: 'back_translation' });
      }
    }
  }
  const no = negation(original, source);
  const nt = negation(translation, target);
  if (no !== null && nt !== null && (no === '') !== (nt === '')) {
    flags.push({
      kind: 'negation',
      value: no || nt,
      change: no ? 'lost' : 'added',
      stage: 'translation',
    });
  } else if (back !== null && no !== null) {
    const nb = negation(back, source)!;
    if ((no === '') !== (nb === '')) {
      flags.push({
        kind: 'negation',
        value: no || nb,
        change: no ? 'lost' : 'added',
        stage: 'back_translation',
      });
    }
  }
  return flags;
}
