import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import {
  appendToChatWindows,
  chatWindowKey,
  flattenWindow,
  type ChatWindowData,
} from './message-cache';
import { chatKey, type ChatData } from './message-cache';
import { chatMessage } from '../../../test/builders';

const msg = (id: number, session_id = 1) => chatMessage(id, { session_id, content: `m${id}` });

const page = (ids: number[], hasNewer: boolean) => ({
  list: ids.map((id) => msg(id)),
  has_more: true,
  has_newer: hasNewer,
});

function windowData(hasNewer: boolean): ChatWindowData {
  return {
    pages: [page([1, 2], false), page([3, 4, 5], hasNewer)],
    pageParams: [{ before_id: 3 }, { around_id: 4 }],
  };
}

describe('chat window', () => {
  it('reads its pages oldest first', () => {
    expect(flattenWindow(windowData(false).pages).map((m) => m.msg_id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('takes a sent message only when it holds the newest messages, and once', () => {
    const qc = new QueryClient();
    qc.setQueryData(chatWindowKey(1, 4), windowData(false));
    qc.setQueryData(chatWindowKey(1, 9), windowData(true));
    const live: ChatData = { pages: [page([4, 5], false)], pageParams: [null] };
    qc.setQueryData(chatKey(1), live);

    appendToChatWindows(qc, msg(6));
    appendToChatWindows(qc, msg(6));
    const ids = (key: readonly unknown[]) =>
      flattenWindow(qc.getQueryData<ChatWindowData>(key)!.pages).map((m) => m.msg_id);
    expect(ids(chatWindowKey(1, 4))).toEqual([1, 2, 3, 4, 5, 6]);
    // A window that stops before the newest message: the new one is not next to it.
    expect(ids(chatWindowKey(1, 9))).toEqual([1, 2, 3, 4, 5]);
    // The live record is left to appendServerMessage.
    expect(qc.getQueryData(chatKey(1))).toBe(live);
    // Another chat's message goes to that chat's windows only.
    appendToChatWindows(qc, msg(7, 2));
    expect(ids(chatWindowKey(1, 4))).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
