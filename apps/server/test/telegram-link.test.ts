import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hasInviteLink } from '../src/lib/invite-link.js';
import {
  createChat,
  createGroup,
  createSeat,
  type ChatFixture,
  type SeatFixture,
} from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { uploaded } from './media-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

let n = 0;
function send(seat: SeatFixture, chat: ChatFixture, content: string, extra: object = {}) {
  return t.call(
    '/v1/seat/chat/message',
    {
      send_phone: chat.sendPhone,
      receiver_phone: chat.receiverPhone,
      type: 'text',
      content,
      client_msg_id: `tg-link-${process.pid}-${++n}`,
      ...extra,
    },
    seat.token,
  );
}

/** The group the seat's user list shows the chat in. */
async function groupOf(seat: SeatFixture, chat: ChatFixture): Promise<number | undefined> {
  const groups = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
  for (const g of groups.data.group_list) {
    const page = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: g.group_id, user_time_type: 1 },
      seat.token,
    );
    if (page.data.account_list.some((s) => s.session_id === chat.sessionId)) return g.group_id;
  }
  return undefined;
}

describe('Telegram links', () => {
  it('recognises t.me, telegram.me, telegram.dog and tg:// links, not look-alikes', () => {
    for (const text of [
      'join us: https://t.me/parley_support',
      't.me/joinchat/AAAA',
      'http://telegram.me/someone please',
      'www.t.me/+abcdef',
      'open tg://resolve?domain=parley',
      'HTTPS://T.ME/Parley',
      '(telegram.dog/parley)',
    ]) {
      expect(hasInviteLink(text), text).toBe(true);
    }
    for (const text of [
      'meet me at 5',
      'https://at.me/x',
      'https://example.com/t.me',
      'write to t.me later',
      'notg://x',
      'mytelegram.me/x',
    ]) {
      expect(hasInviteLink(text), text).toBe(false);
    }
  });

  it('an operator message with a Telegram link moves the chat to TG link pushed; others do not', async () => {
    const seat = await createSeat(t, 'tg-link');
    const vip = await createGroup(t, seat, 'VIP');
    const plain = await createChat(t.db, seat, { groupId: vip });
    const linked = await createChat(t.db, seat, { groupId: vip });
    const caption = await createChat(t.db, seat);
    const translated = await createChat(t.db, seat);

    expect((await send(seat, plain, 'see https://example.com')).code).toBe('000000');
    expect(await groupOf(seat, plain)).toBe(vip);

    expect((await send(seat, linked, 'Chat with us on https://t.me/parley_support')).code).toBe(
      '000000',
    );
    expect(await groupOf(seat, linked)).toBe(seat.groups.tg_link_pushed);
    // Further messages keep it there; moving it away by hand is the operator's choice.
    expect((await send(seat, linked, 'tg://resolve?domain=parley')).code).toBe('000000');
    expect(await groupOf(seat, linked)).toBe(seat.groups.tg_link_pushed);

    // A media caption counts too.
    const image = await uploaded(t, seat.token, 'image', 'photo.png');
    expect(
      (
        await send(seat, caption, 'scan or tap telegram.me/parley', {
          type: 'image',
          media_id: image.media_id,
        })
      ).code,
    ).toBe('000000');
    expect(await groupOf(seat, caption)).toBe(seat.groups.tg_link_pushed);

    // The operator's own words before translation count as well.
    expect(
      (
        await send(seat, translated, 'Escríbenos por Telegram', {
          original_content: 'Write us at t.me/parley',
        })
      ).code,
    ).toBe('000000');
    expect(await groupOf(seat, translated)).toBe(seat.groups.tg_link_pushed);

    // Another seat's group list shows nothing of it.
    const other = await createSeat(t, 'tg-link-other');
    const page = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: other.groups.tg_link_pushed, user_time_type: 1 },
      other.token,
    );
    expect(page.data.account_list).toEqual([]);
  });

  it('a batch reply with a Telegram link moves every chat it reaches', async () => {
    const seat = await createSeat(t, 'tg-link-batch');
    const a = await createChat(t.db, seat);
    const b = await createChat(t.db, seat);
    const c = await createChat(t.db, seat);
    const res = await t.call(
      '/v1/seat/chat/batch_message',
      {
        batch_id: `tg-link-batch-${process.pid}`,
        session_ids: [a.sessionId, b.sessionId],
        content: 'We moved to Telegram: https://t.me/parley_shop',
      },
      seat.token,
    );
    expect(res.code).toBe('000000');
    await vi.waitFor(
      async () => {
        const status = await t.call(
          '/v1/seat/chat/batch_status',
          { batch_id: `tg-link-batch-${process.pid}` },
          seat.token,
        );
        expect(status.data).toMatchObject({ done: true, sent: 2 });
      },
      { timeout: 15_000, interval: 20 },
    );
    expect(await groupOf(seat, a)).toBe(seat.groups.tg_link_pushed);
    expect(await groupOf(seat, b)).toBe(seat.groups.tg_link_pushed);
    expect(await groupOf(seat, c)).toBe(seat.groups.ungrouped);
  });
});
