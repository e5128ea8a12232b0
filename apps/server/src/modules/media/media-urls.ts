import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { MEDIA_PATH_PREFIX, SANDBOX_PATHS } from '@parley/protocol';

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
   * The customer sandbox's URL of a media it shows: signed over the sandbox entry that carries
   * it (a retracted entry stops serving it), the media and the expiry, in a message no seat's
   * signature can take (it starts with `sandbox`).
   */
  sandboxUrl(entryId: number, mediaId: string): string {
    const exp = this.expiry();
    const sig = this.signSandbox(entryId, mediaId, exp);
    return `${SANDBOX_PATHS.media}/${encodeURIComponent(mediaId)}?entry=${entryId}&exp=${exp}&sig=${sig}`;
  }

  checkSandbox(s: { entryId: number; mediaId: string; exp: number; sig: string }): SignatureCheck {
    return this.verify(this.signSandbox(s.entryId, s.mediaId, s.exp), s.sig, s.exp);
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

  private signSandbox(entryId: number, mediaId: string, exp: number): string {
    return this.hmac(`sandbox\n${entryId}\n${mediaId}\n${exp}`);
  }

  private hmac(message: string): string {
    return createHmac('sha256', this.secret).update(message).digest('base64url');
  }
}
