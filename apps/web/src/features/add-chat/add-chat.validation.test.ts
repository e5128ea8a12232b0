import { describe, expect, it } from 'vitest';
import { addChatErrors } from './add-chat.validation';

const ok = { sendPhone: '+15550001', receiverPhone: '+4477001122', greeting: 'Hello' };

describe('addChatErrors', () => {
  it('accepts a valid number (trimmed) and a greeting', () => {
    expect(addChatErrors(ok)).toEqual({});
    expect(addChatErrors({ ...ok, receiverPhone: ' 4477001122 ' })).toEqual({});
  });
  it('needs an account, a number of the protocol format and a greeting', () => {
    expect(addChatErrors({ sendPhone: null, receiverPhone: '12ab', greeting: '   ' })).toEqual({
      sendPhone: 'required',
      receiverPhone: '400005',
      greeting: 'required',
    });
    for (const bad of ['', '1234', '+12 345 678', '+' + '1'.repeat(21), 'abcdef']) {
      expect(addChatErrors({ ...ok, receiverPhone: bad }).receiverPhone, bad).toBe('400005');
    }
  });
  it('on a WhatsApp account, needs a template with its variables instead of a text', () => {
    expect(addChatErrors({ ...ok, greeting: '', template: false })).toEqual({
      template: 'required',
    });
    expect(addChatErrors({ ...ok, greeting: '', template: true })).toEqual({});
  });
});
