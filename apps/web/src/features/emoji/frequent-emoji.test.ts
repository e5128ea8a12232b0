import { describe, expect, it } from 'vitest';
import { FREQUENT_MAX, rank, readUsage, recordUse, usageKey } from './frequent-emoji';

describe('frequent emoji', () => {
  it('ranks by how often, then how recently, each was picked', () => {
    let usage = {};
    usage = recordUse(usage, '👍', 1);
    usage = recordUse(usage, '🎉', 2);
    usage = recordUse(usage, '👍', 3);
    usage = recordUse(usage, '❤️', 4);
    expect(rank(usage)).toEqual(['👍', '❤️', '🎉']);
  });

  it('keeps the table small, forgetting the least used', () => {
    let usage = recordUse({}, 'keep', 0);
    usage = recordUse(usage, 'keep', 0);
    for (let i = 0; i < FREQUENT_MAX * 4; i++) usage = recordUse(usage, `e${i}`, i + 1);
    expect(Object.keys(usage).length).toBeLessThanOrEqual(FREQUENT_MAX * 4);
    expect(rank(usage)[0]).toBe('keep');
  });

  it('is stored per seat, and bad stored values read as empty', () => {
    expect(usageKey(7)).not.toBe(usageKey(8));
    const store = new Map<string, string>([
      ['a', 'not json'],
      ['b', '[1]'],
    ]);
    const like = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: () => undefined,
      removeItem: () => undefined,
    };
    expect(readUsage('a', like)).toEqual({});
    expect(readUsage('b', like)).toEqual({});
    expect(readUsage('missing', like)).toEqual({});
  });
});
