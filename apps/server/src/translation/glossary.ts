/**
 * A workspace's glossary as a matcher over a text: names that are never translated, patterns
 * (order numbers), and fixed translations of one language pair. Matches are found left to
 * right; where several start at one place the longest wins (so "Parley Cloud" beats "Parley"),
 * and a match never starts or ends inside a word. Case is ignored; a kept name keeps the case it
 * was written with, a fixed translation is written as the owner wrote it.
 *
 * Cost: names and fixed translations sit in a trie (by lower-cased character), so each place of
 * a text walks at most the longest term's length whatever their number; patterns are indexed by
 * their first character (those beginning with a wildcard are tried at every word start).
 * 10,000 entries cost little more than 10.
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
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

/** The pattern's first character when it is a literal one (its index key), else null. */
function literalStart(pattern: string): string | null {
  const c = pattern[0];
  if (c === undefined || c === '#' || c === '?' || c === '*') return null;
  if (c === '\\') return pattern[1] ?? null;
  return c;
}

interface Literal {
  replacement: string | null;
  wordStart: boolean;
  wordEnd: boolean;
}
interface TrieNode {
  next: Map<string, TrieNode>;
  /** The term ending here (the last one added of its lower-cased spelling). */
  term: Literal | null;
}
const node = (): TrieNode => ({ next: new Map(), term: null });
interface Pattern {
  regex: RegExp;
}

export function glossaryMatcher(terms: GlossaryTerm[]): GlossaryMatcher | null {
  if (terms.length === 0) return null;
  const root = node();
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
    // One code unit at a time, each lower-cased: the text is walked the same way.
    let at = root;
    for (const unit of t.term.split('')) {
      for (const c of unit.toLowerCase()) {
        let next = at.next.get(c);
        if (!next) at.next.set(c, (next = node()));
        at = next;
      }
    }
    at.term = {
      replacement: t.kind === 'fixed' ? t.translation : null,
      wordStart: isWord(t.term[0]),
      wordEnd: isWord(t.term[t.term.length - 1]),
    };
  }

  return {
    find(text) {
      const hits: GlossaryHit[] = [];
      let i = 0;
      while (i < text.length) {
        const before = text[i - 1];
        const key = keyOf(text[i]!);
        let best: { end: number; replacement: string } | null = null;
        // The trie walked from here: the longest term that ends on a word boundary wins.
        let at: TrieNode | undefined = root;
        for (let j = i; at && j < text.length; j++) {
          for (const c of text[j]!.toLowerCase()) at = at?.next.get(c);
          const l = at?.term;
          if (!l || (l.wordStart && isWord(before)) || (l.wordEnd && isWord(text[j + 1]))) continue;
          best = { end: j + 1, replacement: l.replacement ?? text.slice(i, j + 1) };
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
