import { describe, expect, it } from 'vitest';
import { reassemble, segment, translatableRuns } from '../src/translation/protect.js';

/** What an engine would receive, and the text rebuilt from a mangling "translation". */
function runsOf(text: string) {
  return translatableRuns(segment(text));
}
function mangle(text: string) {
  const segs = segment(text);
  // An engine that upper-cases words and rewrites every digit, emoji or @ it is given.
  return reassemble(
    segs,
    translatableRuns(segs).map((r) => r.toUpperCase().replace(/[0-9@😀]/gu, '#')),
  );
}

describe('protected tokens', () => {
  it('sends only the words between emoji, URLs, phone numbers, numbers and mentions', () => {
    const text =
      'Hola 😀 visita https://example.com/a?b=1. Llama al +34 600 123 456 o paga 12.50 € a @maria_g!';
    // The amount keeps its currency symbol: "12.50 €" is one token.
    expect(runsOf(text)).toEqual(['Hola', 'visita', '. Llama al', 'o paga', 'a']);
    expect(mangle(text)).toBe(
      'HOLA 😀 VISITA https://example.com/a?b=1. LLAMA AL +34 600 123 456 O PAGA 12.50 € A @maria_g!',
    );
  });

  it('keeps whole emoji sequences: skin tones, ZWJ families, flags, keycaps, tag flags', () => {
    const text = 'hi 👍🏽 and 👨‍👩‍👧 from 🇪🇸 at 1️⃣ or 🏴󠁧󠁢󠁥󠁮󠁧󠁿 bye';
    expect(runsOf(text)).toEqual(['hi', 'and', 'from', 'at', 'or', 'bye']);
    expect(mangle(text)).toBe('HI 👍🏽 AND 👨‍👩‍👧 FROM 🇪🇸 AT 1️⃣ OR 🏴󠁧󠁢󠁥󠁮󠁧󠁿 BYE');
  });

  it('keeps e-mail addresses, times, dates and percentages; a number glued to a word stays a word', () => {
    const text = 'mail john.doe@example.co.uk now, 3rd time at 12:30 on 2026-05-01 (50%)';
    expect(runsOf(text)).toEqual(['mail', 'now, 3rd time at', 'on']);
    // "3rd" is a word (an ordinal the engine must translate), so the engine gets it whole.
    expect(mangle(text)).toBe(
      'MAIL john.doe@example.co.uk NOW, #RD TIME AT 12:30 ON 2026-05-01 (50%)',
    );
  });

  it('keeps order ids, codes and amounts with their currency whole', () => {
    const text =
      'Order #A-12345 and ORD-2026-0042 (SKU-4471-B, model X200, code SPRING25, box 30x20x10) cost R$ 49,90, $1,299.00, €12,50, 49,90 € or USD 120 on the 3rd at 10am';
    expect(runsOf(text)).toEqual([
      'Order',
      'and',
      ', model',
      ', code',
      ', box',
      ') cost',
      'or',
      'on the 3rd at 10am',
    ]);
    expect(mangle(text)).toBe(
      'ORDER #A-12345 AND ORD-2026-0042 (SKU-4471-B, MODEL X200, CODE SPRING25, BOX 30x20x10) COST R$ 49,90, $1,299.00, €12,50, 49,90 € OR USD 120 ON THE #RD AT ##AM',
    );
  });

  it('leaves a URL’s closing bracket and full stop to the sentence', () => {
    expect(segment('see (www.example.org/x).')).toEqual([
      { keep: false, text: 'see (' },
      { keep: true, text: 'www.example.org/x).' },
    ]);
    expect(mangle('open http://a.example/b?c=d#e, then')).toBe(
      'OPEN http://a.example/b?c=d#e, THEN',
    );
  });

  it('sends nothing for a text of emoji, numbers, spaces or punctuation only', () => {
    for (const text of ['😀😀', '   ', '12.50', '+1 (555) 123-4567', '@bob', '...!?', '']) {
      expect(runsOf(text), text).toEqual([]);
      expect(mangle(text)).toBe(text);
    }
  });

  it('keeps line breaks and outer spaces around each run', () => {
    const text = '  Line one\n\nLine two 😀  ';
    expect(runsOf(text)).toEqual(['Line one\n\nLine two']);
    expect(mangle(text)).toBe('  LINE ONE\n\nLINE TWO 😀  ');
  });
});
