import { describe, expect, it } from 'vitest';
import { languageLabel } from './language-label';

describe('languageLabel', () => {
  it('names a translation language in the UI language, keeping its code', () => {
    expect(languageLabel('ES', 'en')).toBe('Spanish (ES)');
    expect(languageLabel('PT-BR', 'en')).toMatch(/Portuguese.*\(PT-BR\)/);
    expect(languageLabel('DE', 'ru')).toBe('немецкий (DE)');
  });
  it('shows an unknown code as it is', () => {
    expect(languageLabel('XX', 'en')).toBe('XX');
  });
});
