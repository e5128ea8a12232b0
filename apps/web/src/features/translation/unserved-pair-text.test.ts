import { describe, expect, it } from 'vitest';
import type { EngineOffer } from '@parley/protocol';
import { offerSummary, orList } from './unserved-pair-text';

/** The keys with their count, as i18next would be asked. */
const t = (key: string, options?: Record<string, unknown>) =>
  `${key}(${String(options?.count ?? '')})`;

const apertium: EngineOffer = {
  engine: 'apertium',
  auto_detect: false,
  sources: ['EN', 'EN-GB', 'EN-US', 'ES'],
  targets: ['EN', 'EN-GB', 'EN-US', 'ES'],
  pairs: [
    { source: 'ES', target: 'EN' },
    { source: 'ES', target: 'EN-GB' },
    { source: 'EN', target: 'ES' },
    { source: 'EN-US', target: 'ES' },
    { source: 'FR', target: 'ES' },
  ],
};

describe('what an engine translates, said briefly', () => {
  it('names pairs by language, both directions as one, variants folded', () => {
    expect(offerSummary(apertium, 'en', t)).toBe('Spanish ↔ English, French → Spanish');
    expect(offerSummary(apertium, 'pt', t)).toBe('espanhol ↔ inglês, francês → espanhol');
  });

  it('counts the rest beyond four pairs', () => {
    const many: EngineOffer = {
      ...apertium,
      pairs: ['FR', 'DE', 'IT', 'PT', 'NL', 'PL'].map((s) => ({ source: s as 'FR', target: 'ES' })),
    };
    expect(offerSummary(many, 'en', t)).toBe(
      'French → Spanish, German → Spanish, Italian → Spanish, Portuguese → Spanish translation:morePairs(2)',
    );
  });

  it('counts the languages of an engine that translates any into any', () => {
    const deepl: EngineOffer = {
      engine: 'deepl',
      auto_detect: true,
      sources: ['EN', 'DE', 'PT'],
      targets: ['EN-GB', 'EN-US', 'DE', 'PT-BR', 'PT-PT'],
      pairs: null,
    };
    expect(offerSummary(deepl, 'en', t)).toBe('translation:engineLanguages(3)');
  });

  it('joins alternatives with the UI language’s "or"', () => {
    expect(orList(['DeepL', 'LibreTranslate'], 'en')).toBe('DeepL or LibreTranslate');
    expect(orList(['DeepL', 'LibreTranslate'], 'ru')).toBe('DeepL или LibreTranslate');
  });
});
