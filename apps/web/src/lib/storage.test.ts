import { describe, expect, it } from 'vitest';
import { TRANSLATION_DEFAULTS } from '@parley/protocol';
import {
  clearOnLogout,
  ensureTranslateDefaults,
  readItem,
  readReply,
  readToken,
  writeItem,
} from './storage';
import { memoryStore } from '../test/builders';

describe('storage', () => {
  it('stores values as JSON under the spec keys', () => {
    const s = memoryStore();
    writeItem('reply', 1, s);
    writeItem('language', 'pt', s);
    expect(s.map.get('reply')).toBe('1');
    expect(s.map.get('language')).toBe('"pt"');
    expect(readItem('language', s)).toBe('pt');
  });

  it('reply defaults to 0', () => {
    const s = memoryStore();
    expect(readReply(s)).toBe(0);
    s.setItem('reply', 'garbage');
    expect(readReply(s)).toBe(0);
  });

  it('reads the token from userInfo', () => {
    const s = memoryStore();
    expect(readToken(s)).toBeNull();
    s.setItem('userInfo', JSON.stringify({ token: 'abc' }));
    expect(readToken(s)).toBe('abc');
  });

  it('logout keeps only the translation settings', () => {
    const s = memoryStore();
    for (const k of ['userInfo', 'reply', 'language', 'size', 'theme', 'tagsView']) {
      s.setItem(k, '1');
    }
    s.setItem('groupList', '[]');
    s.setItem('selectedGroup', '{}');
    ensureTranslateDefaults(s);
    clearOnLogout(s);
    expect([...s.map.keys()]).toEqual(['translate']);
  });

  it('translation settings get the spec defaults', () => {
    const s = memoryStore();
    const t = ensureTranslateDefaults(s);
    expect(t).toMatchObject(TRANSLATION_DEFAULTS);
    expect(t.hisTranslateMsg).toEqual([]);
    expect(typeof t.cacheTime).toBe('number');
  });
});
