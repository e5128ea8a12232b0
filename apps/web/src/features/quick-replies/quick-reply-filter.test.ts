import { describe, expect, it } from 'vitest';
import type { QuickReply } from '@parley/protocol';
import { filterQuickReplies, materialProblems, slashToken, textFirst } from './quick-reply-filter';

const item = (id: number, kind: QuickReply['kind'], name: string, content: string): QuickReply => ({
  id,
  kind,
  name,
  content,
  media_id: kind === 'text' ? null : `m${id}`,
  media: null,
  updated_at: id,
});

describe('quick reply helpers', () => {
  const list = [
    item(1, 'text', 'Greeting', 'Hello! How can I help?'),
    item(2, 'text', 'Shipping', 'Your parcel ships tomorrow'),
    item(3, 'image', 'Price list', 'Our prices'),
  ];

  it('filters by name or content, case-insensitively, and by kind', () => {
    expect(filterQuickReplies(list, 'greet').map((q) => q.id)).toEqual([1]);
    expect(filterQuickReplies(list, 'PARCEL').map((q) => q.id)).toEqual([2]);
    expect(filterQuickReplies(list, '').map((q) => q.id)).toEqual([1, 2, 3]);
    expect(filterQuickReplies(list, 'pri', 'image').map((q) => q.id)).toEqual([3]);
    expect(filterQuickReplies(list, 'pri', 'text').map((q) => q.id)).toEqual([]);
  });

  it('lists text replies before media, keeping the order within each', () => {
    const mixed = [
      item(4, 'audio', 'Jingle', 'a'),
      item(3, 'image', 'Price list', 'b'),
      item(2, 'text', 'Shipping', 'c'),
      item(1, 'text', 'Greeting', 'd'),
    ];
    expect(textFirst(mixed).map((q) => q.id)).toEqual([2, 1, 4, 3]);
  });

  it('finds the /word before the caret', () => {
    expect(slashToken('/', 1)).toEqual({ start: 0, end: 1, query: '' });
    expect(slashToken('Hi /gre', 7)).toEqual({ start: 3, end: 7, query: 'gre' });
    expect(slashToken('Hi /gre there', 7)).toEqual({ start: 3, end: 7, query: 'gre' });
    expect(slashToken('Hi /gre there', 13)).toBeNull();
    expect(slashToken('http://x', 8)).toBeNull();
    expect(slashToken('a/b', 3)).toBeNull();
  });

  it('names the missing fields of a material', () => {
    expect(materialProblems({ kind: 'text', name: ' ', content: '', mediaId: null })).toEqual({
      name: 'nameRequired',
      content: 'contentRequired',
    });
    expect(materialProblems({ kind: 'image', name: 'a', content: 'b', mediaId: null })).toEqual({
      media: 'mediaRequired',
    });
    expect(materialProblems({ kind: 'audio', name: 'a', content: 'b', mediaId: 'm' })).toEqual({});
  });
});
