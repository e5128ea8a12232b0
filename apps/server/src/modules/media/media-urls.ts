import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
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
 * What PostgreSQL needs to sign a media URL as urlsFor does, inside a statement that builds a
 * chat's answer (sessionItemSql): HMAC-SHA256's inner and outer padded keys (hex) and the
 * expiry. The secret itself never enters a statement.
 */
export interface SqlSigning {
  ipad: string;
  opad: string;
  exp: number;
}

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

  /** The padded keys of this secret for a statement that signs (RFC 2104), today's expiry. */
  sqlSigning(): SqlSigning {
    let key = Buffer.from(this.secret);
    if (key.length > 64) key = createHash('sha256').update(key).digest();
    const block = Buffer.alloc(64);
    key.copy(block);
    const pad = (byte: number) => Buffer.from(block.map((b) => b ^ byte)).toString('hex');
    return { ipad: pad(0x36), opad: pad(0x5c), exp: this.expiry() };
  }

  check(s: MediaSignature): SignatureCheck {
    return this.verify(this.sign(s.seatId, s.mediaId, s.exp), s.sig, s.exp);
  }

  /**
   * A media's signature for a holder other than a seat (a channel's page signs for the entry
   * that shows it): over the scope, the holder, the media and the expiry, in a message no
   * seat's signature can take (it starts with the scope's name).
   */
  signFor(scope: string, holder: number, mediaId: string): { exp: number; sig: string } {
    const exp = this.expiry();
    return { exp, sig: this.signScoped(scope, holder, mediaId, exp) };
  }

  checkFor(
    scope: string,
    s: { holder: number; mediaId: string; exp: number; sig: string },
  ): SignatureCheck {
    return this.verify(this.signScoped(scope, s.holder, s.mediaId, s.exp), s.sig, s.exp);
  }

  private verify(expectedSig: string, sig: string, exp: number): SignatureCheck {
    const expected = Buffer.from(expectedSig);
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return exp * 1000 <= this.now() ? 'expired' : 'ok';
  }

  /** End of the next UTC day, in Unix seconds. */
  private expiry(): number {
    const today = Math.floor(this.now() / 1000 / DAY_SECONDS);
    return (today + 2) * DAY_SECONDS;
  }

  private sign(seatId: number, mediaId: string, exp: number): string {
    return this.hmac(`${seatId}\n${mediaId}\n${exp}`);
  }

  private signScoped(scope: string, holder: number, mediaId: string, exp: number): string {
    return this.hmac(`${scope}\n${holder}\n${mediaId}\n${exp}`);
  }

  private hmac(message: string): string {
    return createHmac('sha256', this.secret).update(message).digest('base64url');
  }
}
