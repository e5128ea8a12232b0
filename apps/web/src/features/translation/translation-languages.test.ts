import { describe, expect, it } from 'vitest';
import { incomingSource, languageOptions, outgoingPair } from './translation-languages';

const settings = { sourceLanguage: 'ES', targetLanguage: 'EN' } as const;

describe('translation languages', () => {
  it('incoming: the chat customer language first, then detection, then the settings', () => {
    expect(incomingSource('FR', settings, true)).toBe('FR');
    expect(incomingSource(null, settings, true)).toBe('auto');
    expect(incomingSource(null, settings, false)).toBe('ES');
    expect(incomingSource('nonsense', settings, false)).toBe('ES');
    // The operator's own language (any variant) needs no translation.
    expect(incomingSource('EN-GB', settings, true)).toBeNull();
  });

  it('outgoing: from my language into the customer language', () => {
    expect(outgoingPair(null, settings)).toEqual({ source: 'EN', target: 'ES' });
    expect(outgoingPair('PT-BR', settings)).toEqual({ source: 'EN', target: 'PT-BR' });
    expect(outgoingPair('EN-US', settings)).toBeNull();
  });

  it('names every language in the UI language, sorted', () => {
    const ru = languageOptions('ru');
    expect(ru.length).toBeGreaterThanOrEqual(45);
    expect(ru.find((o) => o.value === 'ES')?.label).toBe('испанский (ES)');
    const labels = ru.map((o) => o.label);
    expect([...labels].sort(new Intl.Collator('ru').compare)).toEqual(labels);
  });
});
