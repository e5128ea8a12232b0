/**
 * A workspace's glossary as a matcher over a text: names that are never translated, patterns
 * (order numbers), and fixed translations of one language pair. Matches are found left to
 * right; where several start at one place the longest wins (so "Parley Cloud" beats "Parley"),
 * and a match never starts or ends inside a word. Case is ignored; a kept name keeps the case it
 * was written with, a fixed translation is written as the owner wrote it.
 *
 * Cost: terms are indexed by their first character, so a text is scanned once and each word
 * start tries only the terms that begin with its letter (plus the patterns that begin with a
 * wildcard): 10,000 entries cost little more than 10.
 */
export type GlossaryKind = 'keep' | 'pattern' | 'fixed';

export interface GlossaryTerm {
  kind: GlossaryKind;
  term: string;
  /** `fixed`: what the term becomes. */
  translation: string | null;
}

export interface GlossaryHit {
  start: number;
  end: number;
  /** What stands in the translation: the text itself (kept) or the fixed translation. */
  replacement: string;
}

export interface GlossaryMatcher {
  /** Non-overlapping hits, in order. */
  find(text: string): GlossaryHit[];
}

const WORD = /[\p{L}\p{N}_]/u;
const isWord = (ch: string | undefined) => ch !== undefined && WORD.test(ch);
const keyOf = (ch: string) => ch.toLowerCase()[0]!;

/** The regular expression of a pattern (`#` digit, `?` letter or digit, `*` 1 to 32 of them). */
export function patternSource(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) out += escapeRegex(pattern[++i]!);
    else if (c === '#') out += String.raw`\p{Nd}`;
    else if (c === '?') out += String.raw`[\p{L}\p{N}]`;
    else if (c === '*') out += String.raw`[\p{L}\p{N}]{1,32}`;
    else out += escapeRegex(c);
  }
  return out;
}

function escapeRegex(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/** The pattern's first character when it is a literal one (its index key), else null. */
function literalStart(pattern: string): string | null {
  const c = pattern[0];
  if (c === undefined || c === '#' || c === '?' || c === '*') return null;
  if (c === '\\') return pattern[1] ?? null;
  return c;
}

interface Literal {
  lower: string;
  length: number;
  replacement: string | null;
  wordStart: boolean;
  wordEnd: boolean;
}
interface Pattern {
  regex: RegExp;
}

export function glossaryMatcher(terms: GlossaryTerm[]): GlossaryMatcher | null {
  if (terms.length === 0) return null;
  const literals = new Map<string, Literal[]>();
  const patterns = new Map<string, Pattern[]>();
  const wildStart: Pattern[] = [];
  for (const t of terms) {
    if (t.kind === 'pattern') {
      // Sticky: tried at one place only; bounded quantifiers only, at most one `*`.
      const p = { regex: new RegExp(patternSource(t.term), 'iuy') };
      const first = literalStart(t.term);
      if (first === null) wildStart.push(p);
      else {
        const key = keyOf(first);
        patterns.set(key, [...(patterns.get(key) ?? []), p]);
      }
      continue;
    }
    const key = keyOf(t.term[0]!);
    const list = literals.get(key) ?? [];
    list.push({
      lower: t.term.toLowerCase(),
      length: t.term.length,
      replacement: t.kind === 'fixed' ? t.translation : null,
      wordStart: isWord(t.term[0]),
      wordEnd: isWord(t.term[t.term.length - 1]),
    });
    literals.set(key, list);
  }
  for (const list of literals.values()) list.sort((a, b) => b.length - a.length);

  return {
    find(text) {
      const hits: GlossaryHit[] = [];
      let i = 0;
      while (i < text.length) {
        const before = text[i - 1];
        const key = keyOf(text[i]!);
        let best: { end: number; replacement: string } | null = null;
        for (const l of literals.get(key) ?? []) {
          if (best && l.length <= best.end - i) break;
          if (l.wordStart && isWord(before)) continue;
          const end = i + l.length;
          if (l.wordEnd && isWord(text[end])) continue;
          if (text.slice(i, end).toLowerCase() !== l.lower) continue;
          best = { end, replacement: l.replacement ?? text.slice(i, end) };
        }
        if (!isWord(before)) {
          for (const p of [...(patterns.get(key) ?? []), ...wildStart]) {
            p.regex.lastIndex = i;
            const m = p.regex.exec(text);
            if (!m) continue;
            const end = i + m[0].length;
            if (isWord(text[end]) || (best && end <= best.end)) continue;
            best = { end, replacement: m[0] };
          }
        }
        if (best && best.end > i) {
          hits.push({ start: i, end: best.end, replacement: best.replacement });
          i = best.end;
        } else i++;
      }
      return hits;
    },
  };
}
