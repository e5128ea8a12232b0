import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typedPreviewsMigration } from '../src/db/migrations/012-typed-previews.js';
import { createChat, createSeat, type ChatFixture, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { uploaded } from './media-helpers.js';

let t: TestApp;
let seat: SeatFixture;
beforeAll(async () => {
  t = await createTestApp();
  seat = await createSeat(t, 'previews');
});
afterAll(async () => t?.close());

let counter = 0;

async function sendMedia(chat: ChatFixture, type: 'file' | 'audio', mediaId: string) {
  const res = await t.call(
    '/v1/seat/chat/message',
    {
      send_phone: chat.sendPhone,
      receiver_phone: chat.receiverPhone,
      type,
      media_id: mediaId,
      content: '',
      client_msg_id: `typed-preview-${++counter}`,
    },
    seat.token,
  );
  expect(res.code).toBe('000000');
}

async function lastMessage(chat: ChatFixture) {
  const res = await t.call(
    '/v1/seat/chat/getGroupInfo',
    { group_id: seat.groups.ungrouped },
    seat.token,
  );
  return res.data.account_list.find((s) => s.receiver_phone === chat.receiverPhone)!.last_message;
}

describe('chat previews stored before they were typed', () => {
  it('the placeholders "[file]" and "[audio]" of older rows become the file name and nothing', async () => {
    const pdf = await uploaded(t, seat.token, 'file', 'doc.pdf');
    const voice = await uploaded(t, seat.token, 'audio', 'voice.webm', [
      { name: 'duration_ms', value: '1000' },
    ]);
    const fileChat = await createChat(t.db, seat);
    const audioChat = await createChat(t.db, seat);
    await sendMedia(fileChat, 'file', pdf.media_id);
    await sendMedia(audioChat, 'audio', voice.media_id);
    // What the server stored before: an English placeholder for a media message with no caption.
    for (const [chat, type] of [
      [fileChat, 'file'],
      [audioChat, 'audio'],
    ] as const) {
      await t.db
        .updateTable('sessions')
        .set({ last_preview: `[${type}]` })
        .where('id', '=', chat.sessionId)
        .execute();
    }
    expect(await lastMessage(fileChat)).toMatchObject({ type: 'file', preview: '[file]' });

    await typedPreviewsMigration().up(t.db);

    expect(await lastMessage(fileChat)).toMatchObject({ type: 'file', preview: 'doc.pdf' });
    expect(await lastMessage(audioChat)).toMatchObject({ type: 'audio', preview: '' });
  });
});
