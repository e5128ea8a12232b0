import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Media } from '@parley/protocol';
import { MediaUrls } from '../src/modules/media/media-urls.js';
import { resolveMediaSecret } from '../src/modules/media/media.service.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { assertNoStack, createTestApp, type TestApp } from './helper.js';
import { corpus, fetchMedia, uploaded } from './media-helpers.js';

let t: TestApp;
let a: SeatFixture;
let b: SeatFixture;
let photo: Media;
let voice: Media;
let pdf: Media;
beforeAll(async () => {
  t = await createTestApp();
  a = await createSeat(t, 'serve-a');
  b = await createSeat(t, 'serve-b');
  photo = await uploaded(t, a.token, 'image', 'photo.jpg');
  voice = await uploaded(t, a.token, 'audio', 'voice.ogg');
  pdf = await uploaded(t, a.token, 'file', 'doc.pdf');
});
afterAll(async () => t?.close());

/** A refused fetch: a coded JSON answer, never the bytes. */
function expectCoded(res: Awaited<ReturnType<typeof fetchMedia>>, code: string, status: number) {
  assertNoStack(res.body);
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(res.body)).toMatchObject({ code });
  expect(res.headers['content-disposition']).toBeUndefined();
}

function withQuery(url: string, change: (q: URLSearchParams) => void) {
  const [path, query] = url.split('?');
  const q = new URLSearchParams(query);
  change(q);
  return `${path}?${q.toString()}`;
}

describe('serving media', () => {
  it('images, audio and video inline with their sniffed type; safe headers; private cache', async () => {
    for (const [media, type] of [
      [photo, 'image/jpeg'],
      [voice, 'audio/ogg'],
    ] as const) {
      const res = await fetchMedia(t, media.url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="${media.file_name}"; filename*=UTF-8''${media.file_name}`,
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(res.headers['cache-control']).toMatch(/^private/);
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(Number(res.headers['content-length'])).toBe(media.size);
      // HEAD: the same headers, no body; If-None-Match with the ETag: 304.
      const head = await t.app.inject({ method: 'HEAD', url: media.url });
      expect(head.statusCode, head.body).toBe(200);
      expect(head.headers['content-type']).toBe(type);
      expect(Number(head.headers['content-length'])).toBe(media.size);
      expect(head.rawPayload.length).toBe(0);
      const again = await fetchMedia(t, media.url, { 'if-none-match': res.headers.etag as string });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    }
  });

  it('a PDF (and any other file) only as an octet-stream attachment', async () => {
    const res = await fetchMedia(t, pdf.url);
    expect(res.statusCode).toBe(200);
    expect(pdf.mime).toBe('application/pdf');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="doc.pdf"; filename*=UTF-8''doc.pdf`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(corpus('doc.pdf'))).toBe(true);
  });

  it('Range requests: 206 with the slice, suffix and open ranges, 416 past the end', async () => {
    const bytes = corpus('voice.ogg');
    const part = await fetchMedia(t, voice.url, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
    expect(Number(part.headers['content-length'])).toBe(100);
    expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);

    const tail = await fetchMedia(t, voice.url, { range: 'bytes=-50' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 50))).toBe(true);

    const open = await fetchMedia(t, voice.url, { range: `bytes=${bytes.length - 10}-` });
    expect(open.statusCode).toBe(206);
    expect(open.headers['content-range']).toBe(
      `bytes ${bytes.length - 10}-${bytes.length - 1}/${bytes.length}`,
    );
    expect(open.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);

    // An end past the file is clipped to it.
    const clipped = await fetchMedia(t, voice.url, { range: 'bytes=0-99999999' });
    expect(clipped.statusCode).toBe(206);
    expect(clipped.rawPayload.equals(bytes)).toBe(true);

    const past = await fetchMedia(t, voice.url, { range: `bytes=${bytes.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(JSON.parse(past.body)).toMatchObject({ code: '100001' });

    // Several ranges or nonsense: the whole file.
    for (const range of ['bytes=0-1,5-6', 'pages=1-2', 'bytes=abc']) {
      const whole = await fetchMedia(t, voice.url, { range });
      expect(whole.statusCode, range).toBe(200);
      expect(whole.rawPayload.equals(bytes)).toBe(true);
    }
  });

  it('a thumbnail: WebP within 320x320, same proportions; none for audio', async () => {
    expect(photo).toMatchObject({ width: 800, height: 600 });
    const res = await fetchMedia(t, photo.thumb_url!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 240 });

    // Smaller than the box: not enlarged.
    const small = await uploaded(t, a.token, 'image', 'photo.webp');
    const smallThumb = await sharp((await fetchMedia(t, small.thumb_url!)).rawPayload).metadata();
    expect(smallThumb).toMatchObject({ width: 300, height: 200 });

    expect(voice.thumb_url).toBeNull();
    const noThumb = voice.url.replace(`/${voice.media_id}?`, `/${voice.media_id}/thumb?`);
    expectCoded(await fetchMedia(t, noThumb), '400001', 404);
  });

  it('URLs are stable across two presentations, and signed for the seat', async () => {
    const again = t.services.media.urls.urlsFor(a.seatId, photo.media_id, true);
    expect(again).toEqual({ url: photo.url, thumb_url: photo.thumb_url });
    expect(photo.url).toMatch(
      new RegExp(`^/v1/seat/media/${photo.media_id}\\?seat=${a.seatId}&exp=\\d+&sig=[\\w-]{43}$`),
    );
    // The expiry is the end of the next UTC day: a day or two away.
    const exp = Number(new URLSearchParams(photo.url.split('?')[1]).get('exp'));
    expect(exp % 86400).toBe(0);
    const hours = (exp * 1000 - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(24);
    expect(hours).toBeLessThanOrEqual(48);
  });
});

describe('serving: only to the seat that owns the media', () => {
  it('seat B cannot fetch A’s media with its own valid signature for A’s id', async () => {
    const forB = t.services.media.urls.urlsFor(b.seatId, photo.media_id, true);
    expectCoded(await fetchMedia(t, forB.url), '400001', 404);
    expectCoded(await fetchMedia(t, forB.thumb_url!), '400001', 404);
  });

  it('a tampered signature, seat, media id or expiry answers 400003', async () => {
    const tampered = [
      withQuery(photo.url, (q) => {
        const sig = q.get('sig')!;
        q.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
      }),
      withQuery(photo.url, (q) => q.set('seat', String(b.seatId))),
      withQuery(photo.url, (q) => q.set('exp', String(Number(q.get('exp')) + 86400))),
      photo.url.replace(photo.media_id, voice.media_id),
      withQuery(photo.url, (q) => q.delete('sig')),
      photo.url.split('?')[0]!,
    ];
    for (const url of tampered) {
      const res = await fetchMedia(t, url);
      expectCoded(res, '400003', 403);
    }
  });

  it('an expired signature answers 400003', async () => {
    const secret = await resolveMediaSecret(t.db, t.config);
    const threeDaysAgo = new MediaUrls(secret, () => Date.now() - 3 * 86_400_000);
    const old = threeDaysAgo.urlsFor(a.seatId, photo.media_id, true);
    const res = await fetchMedia(t, old.url);
    expectCoded(res, '400003', 403);
    expect(JSON.parse(res.body).data).toEqual({ reason: 'expired' });
    // The same signer's current URL works: it was the expiry that failed.
    expect(
      (await fetchMedia(t, new MediaUrls(secret).urlsFor(a.seatId, photo.media_id, true).url))
        .statusCode,
    ).toBe(200);
  });

  it('an unknown media id with a valid signature answers 400001', async () => {
    const unknown = t.services.media.urls.urlsFor(a.seatId, 'AAAAAAAAAAAAAAAAAAAAAA', true);
    expectCoded(await fetchMedia(t, unknown.url), '400001', 404);
  });

  it('the secret is made once and kept in the database (every instance signs alike)', async () => {
    const first = await resolveMediaSecret(t.db, { mediaSecret: null });
    expect(first).toHaveLength(43);
    expect(await resolveMediaSecret(t.db, { mediaSecret: null })).toBe(first);
    // Other settings live beside it (the Web Push keys): the media secret is one row.
    const stored = await t.db
      .selectFrom('server_settings')
      .selectAll()
      .where('key', '=', 'media_url_secret')
      .execute();
    expect(stored).toEqual([
      { key: 'media_url_secret', value: first, created_at: expect.any(Number) },
    ]);
  });
});
