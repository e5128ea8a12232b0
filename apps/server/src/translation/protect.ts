import type { GlossaryMatcher } from './glossary.js';

/**
 * Tokens no engine may alter: they are cut out of the text, only the runs between them are
 * translated, and the text is put back together around them. Engines given a whole sentence
 * with placeholders move, drop or "translate" them now and then; a run cannot lose a token.
 */
/** ISO 4217 codes customers write beside an amount. */
const CURRENCY_CODES = 'USD|EUR|GBP|BRL|MXN|ARS|CLP|COP|PEN|UYU|CAD|AUD|CHF|JPY|CNY|RUB';

const PROTECTED = new RegExp(
  [
    // URLs (not their trailing sentence punctuation).
    String.raw`(?:https?:\/\/|www\.)[^\s<>"]*[^\s<>"'.,;:!?)\]}»”’]`,
    // E-mail addresses.
    String.raw`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+`,
    // @mentions.
    String.raw`(?<![\p{L}\p{N}_])@[\p{L}\p{N}_.]*[\p{L}\p{N}_]`,
    // Keycap emoji (1️⃣) before numbers, so the digit is not taken alone.
    String.raw`[#*0-9]\uFE0F?\u20E3`,
    // International phone numbers: +, then digits with spaces, dots, dashes or brackets.
    String.raw`\+\(?\d[\d\s().-]{3,}\d`,
    // Amounts with their currency (R$ 49,90, $1,299.00, 49,90 €, USD 120, 120 EUR): an engine
    // moves a symbol standing between words, and translates or marks letters ("US$").
    String.raw`(?<![\p{L}\p{N}_])(?:R\$|US\$|[$€£¥₹₽]|${CURRENCY_CODES})\s?\d+(?:[.,]\d+)*(?![\p{L}\p{N}_])`,
    String.raw`(?<![\p{L}\p{N}_])\d+(?:[.,]\d+)*\s?(?:[$€£¥₹₽]|${CURRENCY_CODES})(?![\p{L}\p{N}_])`,
    // Order ids and codes: upper-case letters and digits joined by dashes, with a digit
    // (#A-12345, ORD-2026-0042, SKU-4471-B), or a word with a digit glued to a letter (X200,
    // SPRING25, 30x20x10, 4B; not 3rd or 10am, which are words): an engine reads "A" as the
    // article, "B" as a word.
    String.raw`#?(?<![\p{L}\p{N}_])(?=[\p{L}\p{N}-]*\d)(?:[\p{Lu}\p{N}]+(?:-[\p{Lu}\p{N}]+)+|[\p{L}\p{N}]*(?:\p{L}\p{N}|\p{N}\p{Lu})[\p{L}\p{N}]*(?:-[\p{L}\p{N}]+)*)(?![\p{L}\p{N}_])`,
    // Numbers not glued to a word: 12, 12.50, 1,000, 12:30, 2026-05-01, 12/03/2026, 50%.
    String.raw`(?<![\p{L}\p{N}_])\d+(?:[.,:/-]\d+)*%?(?![\p{L}\p{N}_])`,
    // Emoji: flags, and pictographs with skin tones, variation selectors and ZWJ joins.
    String.raw`\p{Regional_Indicator}{2}`,
    String.raw`\p{Extended_Pictographic}[\uFE0F\p{Emoji_Modifier}\u{E0020}-\u{E007F}]*(?:\u200D\p{Extended_Pictographic}[\uFE0F\p{Emoji_Modifier}]*)*`,
  ].join('|'),
  'gu',
);

export type Segment = { keep: true; text: string } | { keep: false; text: string };

/** Counts what a glossary matched while a text was cut (the owner's figures). */
export interface GlossaryCount {
  hits: number;
}

/**
 * The text cut into protected tokens (and the spaces around them) and translatable runs. With a
 * glossary, its hits are protected too and stand as their replacement (a kept name as it is, a
 * fixed translation as the owner wrote it). Where a hit and a token overlap, the one that holds
 * the other wins; a hit cutting into a token (a name inside a URL) is dropped: the token stays.
 */
export function segment(
  text: string,
  glossary?: GlossaryMatcher | null,
  count?: GlossaryCount,
): Segment[] {
  const out: Segment[] = [];
  const push = (keep: boolean, piece: string) => {
    if (!piece) return;
    const last = out[out.length - 1];
    if (last && last.keep === keep) last.text += piece;
    else out.push({ keep, text: piece } as Segment);
  };
  const tokens = [...text.matchAll(PROTECTED)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    replacement: m[0],
  }));
  const hits = (glossary?.find(text) ?? []).filter((h) =>
    tokens.every(
      (t) => t.end <= h.start || t.start >= h.end || (t.start >= h.start && t.end <= h.end),
    ),
  );
  if (count) count.hits += hits.length;
  const cuts = [
    ...hits,
    ...tokens.filter((t) => hits.every((h) => t.end <= h.start || t.start >= h.end)),
  ].sort((a, b) => a.start - b.start);
  let at = 0;
  for (const cut of cuts) {
    pushRun(text.slice(at, cut.start), push);
    push(true, cut.replacement);
    at = cut.end;
  }
  pushRun(text.slice(at), push);
  return out;
}

/** A run keeps its outer whitespace and bare punctuation to itself: only words go out. */
function pushRun(run: string, push: (keep: boolean, piece: string) => void) {
  if (!/[\p{L}]/u.test(run)) {
    push(true, run);
    return;
  }
  const lead = /^[\s]*/u.exec(run)![0];
  const trail = /[\s]*$/u.exec(run.slice(lead.length))![0];
  push(true, lead);
  push(false, run.slice(lead.length, run.length - trail.length));
  push(true, trail);
}

/** The runs an engine must translate, in order. */
export function translatableRuns(segments: Segment[]): string[] {
  return segments.filter((s) => !s.keep).map((s) => s.text);
}

/** Puts the text back together with each run replaced by its translation, in order. */
export function reassemble(segments: Segment[], translatedRuns: string[]): string {
  let i = 0;
  return segments.map((s) => (s.keep ? s.text : (translatedRuns[i++] ?? s.text))).join('');
}

/** The protected tokens of a text (what no engine may alter), in order. */
export function protectedTokens(text: string): string[] {
  return [...text.matchAll(PROTECTED)].map((m) => m[0]);
}
