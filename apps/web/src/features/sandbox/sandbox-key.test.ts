import { describe, expect, it } from 'vitest';
import { PHONE_PATTERN, SANDBOX_KEY_PATTERN } from '@parley/protocol';
import { SANDBOX_KEY_ITEM, defaultCustomer, sandboxKey } from './sandbox-key';
import { memoryStore } from '../../test/builders';

describe('sandboxKey', () => {
  it('is made once per browser, random and of the form the server takes', () => {
    const store = memoryStore();
    const key = sandboxKey(store);
    expect(key).toMatch(SANDBOX_KEY_PATTERN);
    expect(key.length).toBe(43);
    expect(store.getItem(SANDBOX_KEY_ITEM)).toBe(key);
    expect(sandboxKey(store)).toBe(key);
    expect(sandboxKey(memoryStore())).not.toBe(key);
  });

  it('replaces a kept value the server would refuse', () => {
    const store = memoryStore();
    store.setItem(SANDBOX_KEY_ITEM, 'x');
    const key = sandboxKey(store);
    expect(key).toMatch(SANDBOX_KEY_PATTERN);
    expect(store.getItem(SANDBOX_KEY_ITEM)).toBe(key);
  });

  it('without storage, one key for the life of the page', () => {
    const key = sandboxKey(null);
    expect(key).toMatch(SANDBOX_KEY_PATTERN);
    expect(sandboxKey(null)).toBe(key);
  });
});

describe('defaultCustomer', () => {
  it("is a valid number of this browser's own, the same after a reload", () => {
    const store = memoryStore();
    const number = defaultCustomer(store);
    expect(number).toMatch(PHONE_PATTERN);
    expect(defaultCustomer(store)).toBe(number);
    const others = new Set(Array.from({ length: 20 }, () => defaultCustomer(memoryStore())));
    expect(others.size).toBeGreaterThan(15);
  });
});
