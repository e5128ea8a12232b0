import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, createSeat } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { uploaded } from './media-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('message content', () => {
  it('a media message may leave content out (the web client strips empty fields); text may not', async () => {
    const seat = await createSeat(t, 'caption-seat');
    const chat = await createChat(t.db, seat);
    const photo = await uploaded(t, seat.token, 'image', 'photo.png');
    const base = { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone };
    const image = await t.call(
      '/v1/seat/chat/message',
      { ...base, type: 'image', media_id: photo.media_id, client_msg_id: 'no-caption-1' },
      seat.token,
    );
    expect(image.code).toBe('000000');
    expect(image.data).toMatchObject({
      type: 'image',
      content: '',
      media: { media_id: photo.media_id },
    });

    const text = await t.call(
      '/v1/seat/chat/message',
      { ...base, type: 'text', client_msg_id: 'no-caption-2' },
      seat.token,
    );
    expect(text.code).toBe('100001');
    expect(text.msg).toBe('Parameter error: content');
  });
});
