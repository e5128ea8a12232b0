import { describe, expect, it } from 'vitest';
import { CUSTOMER_SEARCH_MIN, SEARCH_WORD_MIN } from '@parley/protocol';
import { searchScope } from './search-queries';

describe('searchScope (issue 37)', () => {
  it('searches customers from 2 characters and message text from the spec’s 6', () => {
    expect(CUSTOMER_SEARCH_MIN).toBe(2);
    expect(SEARCH_WORD_MIN).toBe(6);
    for (const short of ['', ' ', 'a', '  b  ', '🎉']) expect(searchScope(short)).toBeNull();
    expect(searchScope('Wei')).toEqual({ word: 'Wei', text: false });
    expect(searchScope('  Souza ')).toEqual({ word: 'Souza', text: false });
    expect(searchScope('Ana')).toEqual({ word: 'Ana', text: false });
    // Characters, not UTF-16 units: three emoji are three characters.
    expect(searchScope('🎉🎉🎉')).toEqual({ word: '🎉🎉🎉', text: false });
    expect(searchScope(' parcel ')).toEqual({ word: 'parcel', text: true });
  });
});
