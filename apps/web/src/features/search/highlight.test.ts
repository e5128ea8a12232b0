import { describe, expect, it } from 'vitest';
import { excerptAround, splitHighlight } from './highlight';

describe('splitHighlight', () => {
  it('marks every occurrence, whatever its case', () => {
    expect(splitHighlight('Parcel-Tracking and parcel-tracking', 'PARCEL-tracking')).toEqual([
      { text: 'Parcel-Tracking', hit: true },
      { text: ' and ', hit: false },
      { text: 'parcel-tracking', hit: true },
    ]);
  });

  it('takes the word literally (regular-expression characters, Cyrillic, emoji)', () => {
    expect(splitHighlight('cost (100%) .* off', '(100%) .*')).toEqual([
      { text: 'cost ', hit: false },
      { text: '(100%) .*', hit: true },
      { text: ' off', hit: false },
    ]);
    expect(splitHighlight('Спасибо за ответ', 'СПАСИБО ЗА').map((p) => p.hit)).toEqual([
      true,
      false,
    ]);
    expect(splitHighlight('yay 🎉🎉🎉 yay', '🎉🎉🎉 yay')).toEqual([
      { text: 'yay ', hit: false },
      { text: '🎉🎉🎉 yay', hit: true },
    ]);
  });

  it('keeps a text without the word (or with an empty word) whole', () => {
    expect(splitHighlight('nothing here', 'absent')).toEqual([
      { text: 'nothing here', hit: false },
    ]);
    expect(splitHighlight('text', '')).toEqual([{ text: 'text', hit: false }]);
    expect(splitHighlight('', 'word')).toEqual([{ text: '', hit: false }]);
  });
});

describe('excerptAround', () => {
  it('cuts a long text around the first hit', () => {
    const text = `${'a'.repeat(200)} needle-word ${'b'.repeat(200)}`;
    const out = excerptAround(text, 'NEEDLE-WORD', 10);
    expect(out).toBe(`…${'a'.repeat(9)} needle-word ${'b'.repeat(9)}…`);
  });

  it('keeps a short text and folds its whitespace', () => {
    expect(excerptAround('line one\n\nline   two', 'line two')).toBe('line one line two');
  });
});
