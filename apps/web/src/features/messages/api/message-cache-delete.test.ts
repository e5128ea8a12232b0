import { describe, expect, it } from 'vitest';
import type { ChatData } from './message-cache';
import { withMessageRetracted, withoutMessage } from './message-cache';
import { chatMessage } from '../../../test/builders';

const msg = (msg_id: number, content: string) => chatMessage(msg_id, { content });

const data: ChatData = {
  pages: [
    { list: [msg(3, 'c'), msg(4, 'd')], has_more: true, has_newer: false },
    { list: [msg(1, 'a'), msg(2, 'b')], has_more: false, has_newer: true },
  ],
  pageParams: [null, 3],
};

describe('chat cache after del_message', () => {
  it('"only for me" removes the message from whichever page holds it', () => {
    const next = withoutMessage(data, 2)!;
    expect(next.pages.map((p) => p.list.map((m) => m.msg_id))).toEqual([[3, 4], [1]]);
    expect(next.pageParams).toEqual(data.pageParams);
    expect(withoutMessage(data, 99)).toBe(data);
  });

  it('"for all" keeps it in place, deleted, without content', () => {
    const next = withMessageRetracted(data, 4)!;
    expect(next.pages[0]!.list[1]).toEqual({ ...msg(4, ''), deleted: true });
    expect(next.pages[0]!.list[0]).toBe(data.pages[0]!.list[0]);
  });

  it('"for all": the replies quoting it show a deleted quote, in every page', () => {
    const quote = {
      msg_id: 2,
      direction: 'out' as const,
      type: 'text' as const,
      preview: 'b',
      deleted: false,
    };
    const quoting: ChatData = {
      pages: [
        {
          list: [chatMessage(3, { reply_to: 2, quote }), msg(4, 'd')],
          has_more: true,
          has_newer: false,
        },
        { list: [msg(1, 'a'), msg(2, 'b')], has_more: false, has_newer: true },
      ],
      pageParams: [null, 3],
    };
    const next = withMessageRetracted(quoting, 2)!;
    expect(next.pages[0]!.list[0]!.quote).toEqual({ ...quote, preview: '', deleted: true });
    expect(next.pages[0]!.list[1]).toBe(quoting.pages[0]!.list[1]);
    expect(next.pages[1]!.list[1]).toMatchObject({ deleted: true, content: '' });
  });
});
