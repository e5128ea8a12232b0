import { describe, expect, it } from 'vitest';
import type { WhatsappTemplate } from '@parley/protocol';
import { emptyValues, fill, isComplete, toTemplateSend } from './template-values';

const ORDER: WhatsappTemplate = {
  name: 'order_update',
  language: 'en_US',
  category: 'UTILITY',
  header: { text: 'Order {{1}}', variables: 1 },
  body: 'Hello {{1}}, your order {{2}} is ready.',
  variables: 2,
  footer: null,
  buttons: [
    { type: 'QUICK_REPLY', text: 'Stop', url: null, variables: 0 },
    { type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}', variables: 1 },
  ],
};

describe('template values', () => {
  it('has one empty value per placeholder of the header, the body and each URL button', () => {
    expect(emptyValues(ORDER)).toEqual({ header: [''], body: ['', ''], buttons: { 1: '' } });
    expect(isComplete(emptyValues(ORDER))).toBe(false);
  });

  it('fills the preview as typed, leaving an empty one visible as its placeholder', () => {
    expect(fill(ORDER.body, ['Ana', ''])).toBe('Hello Ana, your order {{2}} is ready.');
    expect(fill(ORDER.body, ['Ana', 'A-1'])).toBe('Hello Ana, your order A-1 is ready.');
  });

  it('becomes the send the server takes, the buttons by their position, values trimmed', () => {
    const values = { header: [' A-1 '], body: ['Ana', 'A-1'], buttons: { 1: 'A-1' } };
    expect(isComplete(values)).toBe(true);
    expect(toTemplateSend(ORDER, values)).toEqual({
      name: 'order_update',
      language: 'en_US',
      header: ['A-1'],
      body: ['Ana', 'A-1'],
      buttons: [{ index: 1, text: 'A-1' }],
    });
  });
});
