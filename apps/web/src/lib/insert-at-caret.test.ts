import { describe, expect, it } from 'vitest';
import { insertAt } from './insert-at-caret';

describe('insertAt', () => {
  it('inserts at the caret and puts the caret after the insertion', () => {
    expect(insertAt('Hello world', 5, 5, ' 👋')).toEqual({ text: 'Hello 👋 world', caret: 8 });
  });
  it('replaces the selection', () => {
    expect(insertAt('Hello world', 6, 11, 'there')).toEqual({ text: 'Hello there', caret: 11 });
  });
  it('clamps positions outside the text', () => {
    expect(insertAt('abc', 10, 12, '!')).toEqual({ text: 'abc!', caret: 4 });
    expect(insertAt('abc', -3, -1, '!')).toEqual({ text: '!abc', caret: 1 });
  });
});
