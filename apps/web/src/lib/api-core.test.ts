import { describe, expect, it } from 'vitest';
import { classifyEnvelope, errorText, stripEmpty, toQueryString } from './api-core';

describe('stripEmpty', () => {
  it('drops empty strings, null and undefined, keeps 0 and false', () => {
    expect(stripEmpty({ a: '', b: null, c: undefined, d: 0, e: false, f: 'x' })).toEqual({
      d: 0,
      e: false,
      f: 'x',
    });
  });
  it('works through nested objects and keeps arrays', () => {
    expect(stripEmpty({ n: { a: '', b: 1 }, l: [1, 2] })).toEqual({ n: { b: 1 }, l: [1, 2] });
  });
  it('builds query strings without empty params', () => {
    expect(toQueryString({ a: '', b: null, c: 1, d: 'x y' })).toBe('?c=1&d=x+y');
    expect(toQueryString({ a: '' })).toBe('');
  });
});

describe('classifyEnvelope', () => {
  it("treats '000000' and numeric 200 as success", () => {
    expect(classifyEnvelope({ code: '000000', msg: '', data: 1 })).toEqual({
      kind: 'success',
      data: 1,
    });
    expect(classifyEnvelope({ code: 200, msg: '', data: 2 })).toEqual({ kind: 'success', data: 2 });
  });
  it('recognises the expired token', () => {
    expect(classifyEnvelope({ code: '400002', msg: 'Token expired', data: null }).kind).toBe(
      'expired',
    );
  });
  it('returns other codes as errors', () => {
    expect(classifyEnvelope({ code: '100005', msg: 'Password error', data: null })).toEqual({
      kind: 'error',
      code: '100005',
      msg: 'Password error',
      data: null,
    });
  });
  it('treats an undecodable answer as server busy', () => {
    expect(classifyEnvelope(null)).toMatchObject({ kind: 'error', code: '500005' });
  });
});

describe('errorText', () => {
  const tr = (c: string) => ({ '100005': 'Senha incorreta', '500005': 'Servidor ocupado' })[c];
  it('prefers the translation of the code', () => {
    expect(errorText('100005', 'Password error', tr)).toBe('Senha incorreta');
  });
  it('falls back to the server message, then to server busy', () => {
    expect(errorText('999999', 'Odd', tr)).toBe('Odd');
    expect(errorText('999999', '', tr)).toBe('Servidor ocupado');
  });
});
