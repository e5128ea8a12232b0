import { describe, expect, it } from 'vitest';
import { chatMessage } from '../../../test/builders';
import { copyWithTranslationText } from './use-message-actions';

describe('copy with translation', () => {
  it("a customer's message: its text, then the translation shown under it", () => {
    const m = chatMessage(1, { direction: 'in', content: 'Hola, ¿dónde está mi pedido?' });
    expect(copyWithTranslationText(m, 'Hi, where is my order?')).toBe(
      'Hola, ¿dónde está mi pedido?\n\nHi, where is my order?',
    );
    // No translation shown: nothing to copy with it (the entry is not offered).
    expect(copyWithTranslationText(m, undefined)).toBe('');
  });

  it("an operator's translated message: what they wrote, then what the customer got", () => {
    const m = chatMessage(2, { content: 'Llega mañana', original_content: 'It arrives tomorrow' });
    expect(copyWithTranslationText(m, undefined)).toBe('It arrives tomorrow\n\nLlega mañana');
  });

  it('a retracted message has nothing to copy', () => {
    const m = chatMessage(3, { deleted: true, content: '', original_content: 'x' });
    expect(copyWithTranslationText(m, 'y')).toBe('');
  });
});
