import { createHmac, timingSafeEqual } from 'node:crypto';
import { MEDIA_PATH_PREFIX } from '@parley/protocol';

const DAY_SECONDS = 24 * 3600;

export interface MediaSignature {
  seatId: number;
  mediaId: string;
  /** Unix seconds. */
  exp: number;
  sig: string;
}

export type SignatureCheck = 'ok' | 'invalid' | 'expired';

/**
 * Signed media URLs: `<img>` and `<audio>` cannot send the token, so each URL carries an
 * HMAC-SHA256 over (seat_id, media_id, expiry). The expiry is the end of the next UTC day, so
 * a URL stays the same all day (cacheable) and works for 24 to 48 hours.
 */
export class MediaUrls {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** `url` and `thumb_url` of a media, for the seat that will open them. */
  urlsFor(seatId: number, mediaId: string, hasThumb: boolean) {
    const exp = this.expiry();
    const query = `seat=${seatId}&exp=${exp}&sig=${this.sign(seatId, mediaId, exp)}`;
    const base = `${MEDIA_PATH_PREFIX}${encodeURIComponent(mediaId)}`;
    return { url: `${base}?${query}`, thumb_url: hasThumb ? `${base}/thumb?${query}` : null };
  }

  check(s: MediaSignature): SignatureCheck {
    const expected = Buffer.from(this.sign(s.seatId, s.mediaId, s.exp));
    const given = Buffer.from(s.sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return s.exp * 1000 <= this.now() ? 'expired' : 'ok';
  }

  /** End of the next UTC day, in Unix seconds. */
  private expiry(): number {
    const today = Math.floor(this.now() / 1000 / DAY_SECONDS);
    return (today + 2) * DAY_SECONDS;
  }

  private sign(seatId: number, mediaId: string, exp: number): string {
    return createHmac('sha256', this.secret)
      .update(`${seatId}\n${mediaId}\n${exp}`)
      .digest('base64url');
  }
}
