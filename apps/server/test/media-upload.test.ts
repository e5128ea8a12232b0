import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECODE_MAX_PIXELS } from '../src/modules/media/media-images.js';
import { UPLOAD_PATH } from '@parley/protocol';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import {
  corpus,
  fetchMedia,
  storedFiles,
  upload,
  uploaded,
  uploadParts,
  type Part,
} from './media-helpers.js';

let t: TestApp;
let seat: SeatFixture;
const FILE_CAP = 64 * 1024;
beforeAll(async () => {
  // A small file cap so "too large" needs only a little generated data.
  t = await createTestApp({
    mediaMaxBytes: {
      image: 10 * 1024 * 1024,
      audio: 16 * 1024 * 1024,
      video: 32 * 1024,
      file: FILE_CAP,
    },
  });
  seat = await createSeat(t, 'up-owner');
});
afterAll(async () => t?.close());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function mediaRows() {
  return t.db.selectFrom('media').selectAll().orderBy('created_at').execute();
}

/** Refused with 100001 naming `field`; the detail says why. Nothing stored. */
async function expectRefused(
  res: { code: string; msg: string; data: unknown; status: number },
  field: string,
  detail: RegExp,
) {
  expect(res.code).toBe('100001');
  expect(res.status).toBe(200);
  expect(res.msg).toBe(`Parameter error: ${field}`);
  const fields = (res.data as { fields: { path: string; message: string }[] }).fields;
  expect(fields[0]!.path).toBe(field);
  expect(fields[0]!.message).toMatch(detail);
}

describe('upload: accepted by the bytes', () => {
  it('stores each kind of the corpus with the type its bytes have', async () => {
    const cases: [string, string, string, number | null, number | null][] = [
      ['image', 'photo.png', 'image/png', 600, 400],
      ['image', 'photo.jpg', 'image/jpeg', 800, 600],
      ['image', 'photo.webp', 'image/webp', 300, 200],
      ['image', 'badge.gif', 'image/gif', 120, 80],
      ['audio', 'voice.ogg', 'audio/ogg', null, null],
      ['audio', 'voice.webm', 'audio/webm', null, null],
      ['audio', 'tone.mp3', 'audio/mpeg', null, null],
      ['audio', 'tone.wav', 'audio/wav', null, null],
      ['video', 'clip.mp4', 'video/mp4', null, null],
      ['video', 'clip.webm', 'video/webm', null, null],
      ['file', 'doc.pdf', 'application/pdf', null, null],
    ];
    for (const [kind, name, mime, width, height] of cases) {
      const bytes = corpus(name);
      const media = await uploaded(t, seat.token, kind, name);
      expect(media, name).toMatchObject({
        mime,
        size: bytes.length,
        file_name: name,
        width,
        height,
        duration_ms: null,
      });
      expect(media.media_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(media.thumb_url === null).toBe(kind !== 'image');
      // The bytes come back unchanged through the signed URL.
      const res = await fetchMedia(t, media.url);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
      const row = await t.db
        .selectFrom('media')
        .selectAll()
        .where('media_id', '=', media.media_id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ seat_id: seat.seatId, kind, sha256: sha(bytes), mime });
    }
  });

  it('keeps the duration of a voice note or a video; ignores it for an image', async () => {
    const voice = await uploaded(t, seat.token, 'audio', 'voice.webm', [
      { name: 'duration_ms', value: '1000' },
    ]);
    expect(voice.duration_ms).toBe(1000);
    const photo = await uploaded(t, seat.token, 'image', 'photo.png', [
      { name: 'duration_ms', value: '1000' },
    ]);
    expect(photo.duration_ms).toBeNull();
    const bad = await upload(t, seat.token, 'audio', { name: 'voice.ogg' }, [
      { name: 'duration_ms', value: 'long' },
    ]);
    expect(bad.code).toBe('100001');
    expect(bad.msg).toBe('Parameter error: duration_ms');
  });

  it('the same bytes uploaded twice are stored once, as two media', async () => {
    const before = storedFiles(t.config.mediaDir).length;
    const a = await uploaded(t, seat.token, 'audio', 'tone.wav');
    const afterFirst = storedFiles(t.config.mediaDir).length;
    const b = await uploaded(t, seat.token, 'audio', 'tone.wav');
    expect(b.media_id).not.toBe(a.media_id);
    expect(storedFiles(t.config.mediaDir).length).toBe(afterFirst);
    expect(afterFirst - before).toBeLessThanOrEqual(1);
    expect(storedFiles(t.config.mediaDir)).toContain(
      `${sha(corpus('tone.wav')).slice(0, 2)}/${sha(corpus('tone.wav'))}`,
    );
  });

  it('a name or declared type that lies: the bytes decide', async () => {
    // PNG bytes called .jpg and declared image/jpeg: stored as the PNG they are.
    const png = await upload(t, seat.token, 'image', {
      name: 'png-named.jpg',
      contentType: 'image/jpeg',
    });
    expect(png.code).toBe('000000');
    expect(png.data).toMatchObject({ mime: 'image/png', file_name: 'png-named.jpg' });
    expect((await fetchMedia(t, png.data.url)).headers['content-type']).toBe('image/png');

    // An executable called .png and declared image/png: not an image.
    const elf = await upload(t, seat.token, 'image', {
      name: 'elf-named.png',
      contentType: 'image/png',
    });
    await expectRefused(elf, 'file', /not an image \(JPEG, PNG, GIF or WebP\)/);
    // A photo declared as audio is not audio; a voice note is not a video.
    await expectRefused(
      await upload(t, seat.token, 'audio', { name: 'photo.jpg', contentType: 'audio/ogg' }),
      'file',
      /^not audio \(Ogg\/Opus, MP3, M4A\/AAC, WAV, WebM audio or FLAC\)$/,
    );
    await expectRefused(
      await upload(t, seat.token, 'video', { name: 'voice.ogg', contentType: 'video/mp4' }),
      'file',
      /not a video \(MP4, WebM or QuickTime\)/,
    );
    // As a file the executable is accepted, typed by its bytes.
    const asFile = await upload(t, seat.token, 'file', { name: 'elf-named.png' });
    expect(asFile.code).toBe('000000');
    expect(asFile.data).toMatchObject({ mime: 'application/x-elf', file_name: 'elf-named.png' });
    expect(asFile.data.thumb_url).toBeNull();
  });

  it('SVG with a script and HTML: refused as images, files served only as attachments', async () => {
    for (const name of ['script.svg', 'page.html']) {
      const declared = name.endsWith('.svg') ? 'image/svg+xml' : 'text/html';
      await expectRefused(
        await upload(t, seat.token, 'image', { name, contentType: declared }),
        'file',
        /not an image/,
      );
      const file = await upload(t, seat.token, 'file', { name, contentType: declared });
      expect(file.code).toBe('000000');
      expect(file.data.thumb_url).toBeNull();
      const res = await fetchMedia(t, file.data.url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${name}"; filename*=UTF-8''${name}`,
      );
      expect(res.headers['content-security-policy']).toContain('sandbox');
      expect(res.rawPayload.equals(corpus(name))).toBe(true);
    }
  });
});

describe('upload: refused, nothing stored', () => {
  async function expectNothingStored(run: () => Promise<void>) {
    const files = storedFiles(t.config.mediaDir);
    const rows = (await mediaRows()).length;
    await run();
    expect(storedFiles(t.config.mediaDir)).toEqual(files);
    expect((await mediaRows()).length).toBe(rows);
    // No temp file left behind either.
    expect(storedFiles(t.config.mediaDir).filter((f) => f.startsWith('tmp'))).toEqual([]);
  }

  it('an oversized file: 100001 with the limit; nothing in the media directory', async () => {
    await expectNothingStored(async () => {
      const big = Buffer.alloc(FILE_CAP + 1, 7);
      const res = await upload(t, seat.token, 'file', { name: 'big.bin', content: big });
      await expectRefused(res, 'file', /too large: at most 64 KB for file/);
      expect((res.data as unknown as { max_bytes: number }).max_bytes).toBe(FILE_CAP);
      // Far past the cap, and the video cap (32 KB) with a real video header.
      const video = Buffer.concat([corpus('clip.mp4'), Buffer.alloc(40 * 1024)]);
      const tooLong = await upload(t, seat.token, 'video', { name: 'long.mp4', content: video });
      await expectRefused(tooLong, 'file', /too large: at most 32 KB for video/);
    });
    // Exactly at the cap is fine.
    const atCap = await upload(t, seat.token, 'file', {
      name: 'cap.bin',
      content: Buffer.alloc(FILE_CAP, 9),
    });
    expect(atCap.code).toBe('000000');
    expect(atCap.data.size).toBe(FILE_CAP);
  });

  it('over a real socket, a large upload far past the cap is answered, nothing stored', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await expectNothingStored(async () => {
      const form = new FormData();
      form.append('kind', 'file');
      form.append('file', new Blob([Buffer.alloc(8 * 1024 * 1024, 3)]), 'huge.bin');
      const res = await fetch(`${address}${UPLOAD_PATH}`, {
        method: 'POST',
        headers: { authorization: seat.token },
        body: form,
      });
      const body = (await res.json()) as { code: string; msg: string };
      expect(res.status).toBe(200);
      expect(body).toMatchObject({ code: '100001', msg: 'Parameter error: file' });
    });
    // And a good one over the same socket path.
    const form = new FormData();
    form.append('kind', 'image');
    form.append('file', new Blob([corpus('photo.png')], { type: 'image/png' }), 'photo.png');
    const ok = await fetch(`${address}${UPLOAD_PATH}`, {
      method: 'POST',
      headers: { authorization: seat.token },
      body: form,
    });
    expect(((await ok.json()) as { code: string }).code).toBe('000000');
  });

  it('the kind after the file part: the kind’s cap still applies', async () => {
    await expectNothingStored(async () => {
      const res = await uploadParts(t, seat.token, [
        { name: 'file', filename: 'big.bin', content: Buffer.alloc(FILE_CAP + 10, 1) },
        { name: 'kind', value: 'file' },
      ]);
      await expectRefused(res, 'file', /too large/);
    });
  });

  it('a zero-byte file, a missing file part, an unknown or missing kind', async () => {
    await expectNothingStored(async () => {
      for (const kind of ['file', 'image']) {
        await expectRefused(
          await upload(t, seat.token, kind, { name: 'empty.txt' }),
          'file',
          /^empty file$/,
        );
      }
      await expectRefused(
        await uploadParts(t, seat.token, [{ name: 'kind', value: 'image' }]),
        'file',
        /required/,
      );
      const noKind: Part[] = [{ name: 'file', filename: 'a.png', content: corpus('photo.png') }];
      expect((await uploadParts(t, seat.token, noKind)).msg).toBe('Parameter error: kind');
      for (const kind of ['sticker', 'IMAGE', '']) {
        const res = await upload(t, seat.token, kind, { name: 'photo.png' });
        expect(res.code, kind).toBe('100001');
        expect(res.msg).toBe('Parameter error: kind');
      }
    });
  });

  it('two file parts, a file under another name, a JSON body, a broken form', async () => {
    await expectNothingStored(async () => {
      const png = corpus('photo.png');
      const two = await uploadParts(t, seat.token, [
        { name: 'kind', value: 'image' },
        { name: 'file', filename: 'a.png', content: png },
        { name: 'file', filename: 'b.png', content: png },
      ]);
      await expectRefused(two, 'file', /exactly one file part/);
      const other = await uploadParts(t, seat.token, [
        { name: 'kind', value: 'image' },
        { name: 'picture', filename: 'a.png', content: png },
      ]);
      await expectRefused(other, 'file', /exactly one file part/);

      const json = await t.raw({
        method: 'POST',
        url: UPLOAD_PATH,
        headers: { 'content-type': 'application/json', authorization: seat.token },
        payload: JSON.stringify({ kind: 'image', file: 'aGVsbG8=' }),
      });
      await expectRefused(json, 'file', /multipart/);

      const cut = await t.raw({
        method: 'POST',
        url: UPLOAD_PATH,
        headers: {
          'content-type': 'multipart/form-data; boundary=xyz',
          authorization: seat.token,
        },
        payload:
          '--xyz\r\nContent-Disposition: form-data; name="kind"\r\n\r\nimage\r\n--xyz\r\n' +
          'Content-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
      });
      expect(cut.code).toBe('100001');
      expect(cut.msg).toBe('Parameter error: file');
    });
  });

  it('no token, a bad token: 400002; a frozen seat: 200002; nothing stored', async () => {
    const frozen = await createSeat(t, 'up-frozen');
    await t.services.seats.setFrozen('up-frozen', true);
    await expectNothingStored(async () => {
      const none = await upload(t, null, 'image', { name: 'photo.png' });
      expect(none.code).toBe('400002');
      expect(none.status).toBe(200);
      expect(none.msg).toBe('Missing authentication information');
      expect((await upload(t, 'not-a-token', 'image', { name: 'photo.png' })).code).toBe('400002');
      expect((await upload(t, frozen.token, 'image', { name: 'photo.png' })).code).toBe('200002');
    });
  });
});

describe('upload: file names', () => {
  it('keeps the original name for download, sanitised; never a path', async () => {
    const cases: [string, string][] = [
      ['../../../etc/passwd.png', 'passwd.png'],
      ['..\\..\\windows\\win.ini.png', 'win.ini.png'],
      ['re\u202Egnp.exe', 'regnp.exe'],
      ['tab\there\u0007.png', 'tabhere.png'],
      ['a<b>c:d|e?f*.png', 'a_b_c_d_e_f_.png'],
      ['..', 'image.png'],
      ['照片 2024.png', '照片 2024.png'],
      [`${'a'.repeat(300)}.png`, `${'a'.repeat(196)}.png`],
    ];
    for (const [raw, expected] of cases) {
      const res = await uploadParts(t, seat.token, [
        { name: 'kind', value: 'image' },
        { name: 'file', filename: raw, content: corpus('photo.png') },
      ]);
      expect(res.code, raw).toBe('000000');
      expect(res.data.file_name, raw).toBe(expected);
    }
    // Nothing was written outside the media directory's hash layout.
    for (const f of storedFiles(t.config.mediaDir)) {
      expect(f).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{64}$/);
    }
  });

  it('a non-ASCII name downloads with its UTF-8 name', async () => {
    const res = await uploadParts(t, seat.token, [
      { name: 'kind', value: 'file' },
      { name: 'file', filename: 'отчёт.pdf', content: corpus('doc.pdf') },
    ]);
    expect(res.code).toBe('000000');
    const served = await fetchMedia(t, res.data.url);
    expect(served.headers['content-disposition']).toBe(
      `attachment; filename="_____.pdf"; filename*=UTF-8''${encodeURIComponent('отчёт.pdf')}`,
    );
  });
});

describe('images too large to decode', () => {
  /** A tiny PNG whose header claims width x height (one flat colour compresses to little). */
  const flatPng = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#8ab' } })
      .png()
      .toBuffer();

  it('past the decode cap: kept with their dimensions, never decoded for a thumbnail', async () => {
    for (const [width, height] of [
      [7000, 5200], // 36 MP: was decoded (+90-130 MB a time)
      [9000, 7000], // 63 MP: was refused as unreadable
    ] as const) {
      const content = await flatPng(width, height);
      const res = await upload(t, seat.token, 'image', { name: 'big.png', content });
      expect(res.code, res.raw).toBe('000000');
      expect(res.data).toMatchObject({ width, height, thumb_url: null, size: content.length });
      // The original still comes back for the browser to show.
      const served = await fetchMedia(t, res.data.url);
      expect(served.rawPayload.equals(content)).toBe(true);
    }
  });

  it('under the cap (a 12 MP phone photo): a thumbnail as before', async () => {
    expect(4032 * 3024).toBeLessThanOrEqual(DECODE_MAX_PIXELS);
    const res = await upload(t, seat.token, 'image', {
      name: 'phone.png',
      content: await flatPng(4032, 3024),
    });
    expect(res.code, res.raw).toBe('000000');
    expect(res.data.thumb_url).not.toBeNull();
  });
});
