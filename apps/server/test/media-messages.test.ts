import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Media } from '@parley/protocol';
import { EXIT, runCli, type CliIo } from '../src/cli/run.js';
import { createChat, createSeat, type ChatFixture, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { CORPUS, corpus, fetchMedia, storedFiles, uploaded } from './media-helpers.js';

let t: TestApp;
let a: SeatFixture;
let b: SeatFixture;
let chatA: ChatFixture;
let chatB: ChatFixture;
const media: Record<string, Media> = {};
beforeAll(async () => {
  t = await createTestApp();
  a = await createSeat(t, 'mm-a');
  b = await createSeat(t, 'mm-b');
  chatA = await createChat(t.db, a);
  chatB = await createChat(t.db, b);
  media.photo = await uploaded(t, a.token, 'image', 'photo.png');
  media.voice = await uploaded(t, a.token, 'audio', 'voice.webm', [
    { name: 'duration_ms', value: '1000' },
  ]);
  media.clip = await uploaded(t, a.token, 'video', 'clip.mp4');
  media.pdf = await uploaded(t, a.token, 'file', 'doc.pdf');
  media.bPhoto = await uploaded(t, b.token, 'image', 'photo.jpg');
});
afterAll(async () => t?.close());

const SEND = '/v1/seat/chat/message';
const RECORD = '/v1/seat/chat/getChatRecord';
const QR_LIST = '/v1/seat/chat/quickReplyList';
const QR_DO = '/v1/seat/chat/quickReplyDoType';

let counter = 0;
const clientId = () => `media-msg-${String(++counter).padStart(4, '0')}`;

function send(
  seat: SeatFixture,
  chat: ChatFixture,
  body: { type: string; media_id?: string; content?: string; client_msg_id?: string },
) {
  return t.call(
    SEND,
    {
      send_phone: chat.sendPhone,
      receiver_phone: chat.receiverPhone,
      content: '',
      client_msg_id: clientId(),
      ...body,
    },
    seat.token,
  );
}

async function record(seat: SeatFixture, chat: ChatFixture) {
  const res = await t.call(
    RECORD,
    { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone },
    seat.token,
  );
  expect(res.code).toBe('000000');
  return res.data.list;
}

async function chatItem(seat: SeatFixture, chat: ChatFixture) {
  const res = await t.call(
    '/v1/seat/chat/getGroupInfo',
    { group_id: seat.groups.ungrouped },
    seat.token,
  );
  return res.data.account_list.find((s) => s.receiver_phone === chat.receiverPhone)!;
}

async function messageCount(seatId: number) {
  const rows = await t.db
    .selectFrom('messages')
    .select('id')
    .where('seat_id', '=', seatId)
    .execute();
  return rows.length;
}

describe('media messages', () => {
  it('sends image, audio, video and file messages with signed media; the preview is the caption or the file name, never a placeholder', async () => {
    for (const [type, key] of [
      ['image', 'photo'],
      ['audio', 'voice'],
      ['video', 'clip'],
      ['file', 'pdf'],
    ] as const) {
      const caption = type === 'image' ? 'Our new shop' : '';
      const res = await send(a, chatA, { type, media_id: media[key]!.media_id, content: caption });
      expect(res.code, type).toBe('000000');
      expect(res.data).toMatchObject({
        direction: 'out',
        type,
        content: caption,
        status: 'sent',
        media: media[key],
      });
      const item = await chatItem(a, chatA);
      expect(item.last_message).toMatchObject({
        type,
        direction: 'out',
        // The console shows the type as its own translated label beside this.
        preview: type === 'file' ? media[key]!.file_name : caption,
      });
      // The URL in the answer opens the bytes.
      expect((await fetchMedia(t, res.data.media!.url)).statusCode).toBe(200);
    }
    expect(media.voice!.duration_ms).toBe(1000);

    // getChatRecord presents them with signed URLs for this seat.
    const list = await record(a, chatA);
    const shown = list.filter((m) => m.media);
    expect(shown.map((m) => [m.type, m.media!.media_id])).toEqual([
      ['image', media.photo!.media_id],
      ['audio', media.voice!.media_id],
      ['video', media.clip!.media_id],
      ['file', media.pdf!.media_id],
    ]);
    expect(shown[0]!.media).toEqual(media.photo);
    const thumb = await fetchMedia(t, shown[0]!.media!.thumb_url!);
    expect(thumb.headers['content-type']).toBe('image/webp');
  });

  it('a file message takes any kind; the other types need their own kind (100001)', async () => {
    const photoAsFile = await send(a, chatA, { type: 'file', media_id: media.photo!.media_id });
    expect(photoAsFile.code).toBe('000000');
    expect(photoAsFile.data.media!.media_id).toBe(media.photo!.media_id);

    const before = await messageCount(a.seatId);
    for (const [type, key] of [
      ['image', 'voice'],
      ['image', 'pdf'],
      ['audio', 'clip'],
      ['audio', 'photo'],
      ['video', 'voice'],
      ['video', 'pdf'],
    ] as const) {
      const res = await send(a, chatA, { type, media_id: media[key]!.media_id });
      expect(res.code, `${type} with ${key}`).toBe('100001');
      expect(res.msg).toBe('Parameter error: media_id');
    }
    expect(await messageCount(a.seatId)).toBe(before);
  });

  it('the same media message sent twice with one client_msg_id is stored once', async () => {
    const before = await messageCount(a.seatId);
    const body = { type: 'image', media_id: media.photo!.media_id, client_msg_id: 'same-media-01' };
    const first = await send(a, chatA, body);
    const again = await send(a, chatA, body);
    expect(first.code).toBe('000000');
    expect(again.data).toEqual(first.data);
    const [x, y] = await Promise.all([
      send(a, chatA, { ...body, client_msg_id: 'same-media-02' }),
      send(a, chatA, { ...body, client_msg_id: 'same-media-02' }),
    ]);
    expect(x.data.msg_id).toBe(y.data.msg_id);
    expect(await messageCount(a.seatId)).toBe(before + 2);
  });

  it('seat B cannot send A’s media (400001, like an unknown id); nothing stored', async () => {
    const before = await messageCount(b.seatId);
    for (const mediaId of [media.photo!.media_id, 'no-such-media-id']) {
      const res = await send(b, chatB, { type: 'image', media_id: mediaId });
      expect(res.code).toBe('400001');
      expect(res.status).toBe(200);
    }
    expect(await messageCount(b.seatId)).toBe(before);
    // Its own media works.
    expect((await send(b, chatB, { type: 'image', media_id: media.bPhoto!.media_id })).code).toBe(
      '000000',
    );
  });

  it('deleted for all: the message no longer shows its media', async () => {
    const sent = await send(a, chatA, { type: 'audio', media_id: media.voice!.media_id });
    const del = await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: sent.data.msg_id, scope: 'all' },
      a.token,
    );
    expect(del.code).toBe('000000');
    const shown = (await record(a, chatA)).find((m) => m.msg_id === sent.data.msg_id)!;
    expect(shown).toMatchObject({ deleted: true, content: '', media: null });
  });
});

describe('materials with media', () => {
  it('image and audio materials take this seat’s media of the same kind, listed signed', async () => {
    const img = await t.call(
      QR_DO,
      {
        type: 'add',
        kind: 'image',
        name: 'Shop',
        content: 'Our shop',
        media_id: media.photo!.media_id,
      },
      a.token,
    );
    expect(img.code).toBe('000000');
    expect(img.data.item).toMatchObject({
      kind: 'image',
      media_id: media.photo!.media_id,
      media: media.photo,
    });
    const aud = await t.call(
      QR_DO,
      {
        type: 'add',
        kind: 'audio',
        name: 'Hello',
        content: 'Greeting',
        media_id: media.voice!.media_id,
      },
      a.token,
    );
    expect(aud.code).toBe('000000');
    const text = await t.call(
      QR_DO,
      { type: 'add', kind: 'text', name: 'Hi', content: 'Hi!' },
      a.token,
    );
    expect(text.data.item!.media).toBeNull();

    const list = (await t.call(QR_LIST, {}, a.token)).data.list;
    expect(list.map((q) => [q.kind, q.media?.media_id ?? null])).toEqual([
      ['text', null],
      ['audio', media.voice!.media_id],
      ['image', media.photo!.media_id],
    ]);
    expect((await fetchMedia(t, list[2]!.media!.thumb_url!)).statusCode).toBe(200);

    // Edit an image material to another image; a kind mismatch is 100001 naming media_id.
    const mismatch: [string, string][] = [
      ['image', media.voice!.media_id],
      ['image', media.pdf!.media_id],
      ['audio', media.photo!.media_id],
      ['audio', media.clip!.media_id],
    ];
    for (const [kind, mediaId] of mismatch) {
      const add = await t.call(
        QR_DO,
        { type: 'add', kind, name: 'x', content: 'y', media_id: mediaId },
        a.token,
      );
      expect(add.code, `${kind} ${mediaId}`).toBe('100001');
      expect(add.msg).toBe('Parameter error: media_id');
      const edit = await t.call(
        QR_DO,
        { type: 'edit', id: img.data.id, kind, name: 'x', content: 'y', media_id: mediaId },
        a.token,
      );
      expect(edit.code).toBe('100001');
      expect(edit.msg).toBe('Parameter error: media_id');
    }
    expect((await t.call(QR_LIST, {}, a.token)).data.list).toEqual(list);
  });

  it('seat B cannot use A’s media in a material (400001) nor see A’s materials', async () => {
    const before = (await t.call(QR_LIST, {}, b.token)).data.list;
    expect(before).toEqual([]);
    for (const mediaId of [media.photo!.media_id, 'unknown-media']) {
      const res = await t.call(
        QR_DO,
        { type: 'add', kind: 'image', name: 'Stolen', content: 'x', media_id: mediaId },
        b.token,
      );
      expect(res.code).toBe('400001');
    }
    expect((await t.call(QR_LIST, {}, b.token)).data.list).toEqual([]);
    // B's own media works, and its list shows URLs signed for B only.
    const own = await t.call(
      QR_DO,
      { type: 'add', kind: 'image', name: 'Mine', content: 'x', media_id: media.bPhoto!.media_id },
      b.token,
    );
    expect(own.code).toBe('000000');
    expect(own.data.item!.media!.url).toContain(`seat=${b.seatId}&`);
  });
});

describe('inbound media', () => {
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l) };
    const status = await runCli(argv, io, t.config);
    return { status, out: out.join('\n'), err: err.join('\n') };
  }

  it('MessagesService.receive carries a media stored for the owning seat', async () => {
    const customer = '+447700900123';
    const got = await t.services.messages.receive({
      sendPhone: a.phones[0]!,
      receiverPhone: customer,
      content: 'my receipt',
      mediaId: media.pdf!.media_id,
    });
    expect('message' in got && got.message).toMatchObject({
      direction: 'in',
      type: 'file',
      content: 'my receipt',
      media: media.pdf,
    });
    // Another seat's media is as absent as a missing one; a kind that does not fit is refused.
    await expect(
      t.services.messages.receive({
        sendPhone: a.phones[0]!,
        receiverPhone: customer,
        content: '',
        mediaId: media.bPhoto!.media_id,
      }),
    ).rejects.toMatchObject({ code: '400001' });
    await expect(
      t.services.messages.receive({
        sendPhone: a.phones[0]!,
        receiverPhone: customer,
        content: '',
        type: 'image',
        mediaId: media.voice!.media_id,
      }),
    ).rejects.toMatchObject({ code: '100001' });
  });

  it('chat:receive --file: a customer sends a file, checked like an upload', async () => {
    const customer = '+447700900456';
    const photo = await cli(
      'chat:receive',
      a.phones[0]!,
      customer,
      'look',
      '--file',
      path.join(CORPUS, 'photo.jpg'),
    );
    expect(photo.status, photo.err).toBe(EXIT.OK);
    expect(photo.out).toMatch(
      /^Received message \d+ in chat \d+ \(image [\w-]{22}, image\/jpeg\)$/,
    );
    const voice = await cli(
      'chat:receive',
      a.phones[0]!,
      customer,
      '--file',
      path.join(CORPUS, 'voice.webm'),
      '--kind',
      'audio',
    );
    expect(voice.status, voice.err).toBe(EXIT.OK);
    const doc = await cli(
      'chat:receive',
      a.phones[0]!,
      customer,
      '--file',
      path.join(CORPUS, 'page.html'),
    );
    expect(doc.status, doc.err).toBe(EXIT.OK);

    const chat: ChatFixture = { sendPhone: a.phones[0]!, receiverPhone: customer, sessionId: 0 };
    // Unread until the seat opens the chat.
    const item = await chatItem(a, chat);
    expect(item).toMatchObject({
      un_read_count: 3,
      last_message: { type: 'file', preview: 'page.html', direction: 'in' },
    });
    const list = await record(a, chat);
    expect(
      list.map((m) => [m.direction, m.type, m.content, m.media?.mime, m.media?.file_name]),
    ).toEqual([
      ['in', 'image', 'look', 'image/jpeg', 'photo.jpg'],
      ['in', 'audio', '', 'audio/webm', 'voice.webm'],
      ['in', 'file', '', 'application/octet-stream', 'page.html'],
    ]);
    expect(list[0]!.media).toMatchObject({ width: 800, height: 600 });
    const bytes = await fetchMedia(t, list[0]!.media!.url);
    expect(bytes.rawPayload.equals(corpus('photo.jpg'))).toBe(true);
    const html = await fetchMedia(t, list[2]!.media!.url);
    expect(html.headers['content-disposition']).toMatch(/^attachment;/);
    expect(html.headers['content-type']).toBe('application/octet-stream');

    // The same checks as an upload: a lying name, an empty file, a missing file; nothing stored.
    const files = storedFiles(t.config.mediaDir);
    const elf = await cli(
      'chat:receive',
      a.phones[0]!,
      customer,
      '--file',
      path.join(CORPUS, 'elf-named.png'),
      '--kind',
      'image',
    );
    expect(elf.status).toBe(EXIT.INVALID);
    expect(elf.err).toContain('not an image');
    const empty = await cli(
      'chat:receive',
      a.phones[0]!,
      customer,
      '--file',
      path.join(CORPUS, 'empty.txt'),
    );
    expect(empty.status).toBe(EXIT.INVALID);
    expect(empty.err).toContain('empty file');
    const missing = await cli(
      'chat:receive',
      a.phones[0]!,
      customer,
      '--file',
      path.join(CORPUS, 'nope.png'),
    );
    expect(missing.status).toBe(EXIT.USAGE);
    const badKind = await cli(
      'chat:receive',
      a.phones[0]!,
      customer,
      '--file',
      path.join(CORPUS, 'photo.png'),
      '--kind',
      'sticker',
    );
    expect(badKind.status).toBe(EXIT.USAGE);
    expect(storedFiles(t.config.mediaDir)).toEqual(files);
    expect((await record(a, chat)).length).toBe(3);
  });

  it('a chat that moves with its phone account shows its media to the new seat', async () => {
    const seat = await createSeat(t, 'mm-mover');
    const customer = '+447700900789';
    const got = await t.services.messages.receiveFile({
      sendPhone: seat.phones[0]!,
      receiverPhone: customer,
      content: '',
      filePath: path.join(CORPUS, 'photo.png'),
    });
    expect('message' in got).toBe(true);
    const c = await createSeat(t, 'mm-new-owner');
    await t.services.accounts.assign(seat.phones[0]!, 'mm-new-owner');
    const chat: ChatFixture = { sendPhone: seat.phones[0]!, receiverPhone: customer, sessionId: 0 };
    const [message] = await record(c, chat);
    expect(message!.media!.url).toContain(`seat=${c.seatId}&`);
    const res = await fetchMedia(t, message!.media!.url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(corpus('photo.png'))).toBe(true);
    expect((await fetchMedia(t, message!.media!.thumb_url!)).statusCode).toBe(200);
  });
});

describe('a media message without a caption', () => {
  it('may leave content out (clients strip empty fields before sending); text may not', async () => {
    const body = {
      send_phone: chatA.sendPhone,
      receiver_phone: chatA.receiverPhone,
      type: 'image',
      media_id: media.photo!.media_id,
      client_msg_id: clientId(),
    };
    const res = await t.call(SEND, body, a.token);
    expect(res.code).toBe('000000');
    expect(res.data).toMatchObject({ type: 'image', content: '', direction: 'out' });
    expect(res.data.media?.media_id).toBe(media.photo!.media_id);
    const shown = (await record(a, chatA)).find((m) => m.msg_id === res.data.msg_id);
    expect(shown).toMatchObject({ content: '', media: { file_name: 'photo.png' } });

    const before = await messageCount(a.seatId);
    const text = await t.call(
      SEND,
      { ...body, type: 'text', media_id: undefined, client_msg_id: clientId() },
      a.token,
    );
    expect(text.code).toBe('100001');
    expect(text.msg).toBe('Parameter error: content');
    expect(await messageCount(a.seatId)).toBe(before);
  });
});
