import { describe, expect, it } from 'vitest';
import { flattenPages, mergeMessages } from './merge-messages';
import { chatMessage, localMessage } from '../../../test/builders';

const msg = (id: number, cid: string | null = null) =>
  chatMessage(id, { client_msg_id: cid, direction: cid ? 'out' : 'in', content: `m${id}` });

const local = (cid: string) => localMessage(1, { client_msg_id: cid });

describe('chat record merge', () => {
  it('reads pages newest-first into one oldest-first list', () => {
    const pages = [
      { list: [msg(3), msg(4)], has_more: true, has_newer: false },
      { list: [msg(1), msg(2)], has_more: false, has_newer: true },
    ];
    expect(flattenPages(pages).map((m) => m.msg_id)).toEqual([1, 2, 3, 4]);
  });

  it('keeps local inserts when the fetched list is shorter', () => {
    const shown = mergeMessages([msg(1)], [local('cid_aaaaaaa1'), local('cid_aaaaaaa2')]);
    expect(shown).toHaveLength(3);
    expect(shown.filter((m) => 'isLocalInsert' in m)).toHaveLength(2);
  });

  it('replaces a local insert by the server copy with the same client_msg_id', () => {
    const shown = mergeMessages([msg(1), msg(2, 'cid_aaaaaaa1')], [local('cid_aaaaaaa1')]);
    expect(shown.map((m) => m.key)).toEqual(['m1', 'm2']);
  });

  it('keeps waiting and failed local inserts through a refetch that returns fewer messages', () => {
    const waiting = { ...local('cid_aaaaaaa3'), status: 'waiting' as const };
    const failed = {
      ...local('cid_aaaaaaa4'),
      status: 'failed' as const,
      error: { code: '400003', msg: '' },
    };
    const before = mergeMessages([msg(1), msg(2)], [waiting, failed]);
    const after = mergeMessages([msg(2)], [waiting, failed]);
    expect(before.map((m) => m.key)).toEqual(['m1', 'm2', 'lcid_aaaaaaa3', 'lcid_aaaaaaa4']);
    expect(after.map((m) => m.key)).toEqual(['m2', 'lcid_aaaaaaa3', 'lcid_aaaaaaa4']);
    expect(after.map((m) => m.status)).toEqual(['sent', 'waiting', 'failed']);
  });
});
