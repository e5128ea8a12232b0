import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  ERROR_CODES,
  ERROR_MESSAGES,
  uploadFields,
  type Media,
  type MediaKind,
} from '@parley/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { MediaRow } from '../../db/schema.js';
import { AppError, invalidField, notFound } from '../../lib/app-error.js';
import { sanitizeFileName } from '../../lib/file-name.js';
import { spool, SpoolWriteError, type Spooled } from '../../lib/spool.js';
import { parseBody } from '../../lib/validate.js';
import type { MediaStorage } from './media-storage.js';
import { readImage } from './media-images.js';
import { KIND_ACCEPTS, isInlineMime, kindOf, mimeForKind, sniffFile } from './media-sniff.js';
import type { MediaUrls, SignatureCheck } from './media-urls.js';
import { toMedia, toStoredMedia } from './media.presenter.js';
import { mediaRepository } from './media.repository.js';
import { StorageHealth } from './storage-health.js';
import { settingsRepository } from '../settings/settings.repository.js';

const MB = 1024 * 1024;
const SECRET_KEY = 'media_url_secret';
export const MEDIA_ID = /^[A-Za-z0-9_-]{1,32}$/;
const NOUN = { image: 'an image', audio: 'audio', video: 'a video' } as const;

/** The upload form as read from the request: its text fields and its one file, spooled. */
export interface UploadForm {
  fields: Record<string, string>;
  file: (Spooled & { fileName: string | undefined }) | null;
}

/** What GET /v1/seat/media/... sends. */
export interface ServedMedia {
  sha256: string;
  size: number;
  /** The sniffed type when it is safe to show inline, else application/octet-stream. */
  contentType: string;
  inline: boolean;
  fileName: string;
}

function describeBytes(bytes: number): string {
  return bytes >= MB ? `${+(bytes / MB).toFixed(2)} MB` : `${+(bytes / 1024).toFixed(1)} KB`;
}

function fileError(message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError(ERROR_CODES.PARAMETER_ERROR, `${ERROR_MESSAGES['100001']}: file`, {
    fields: [{ path: 'file', message }],
    ...extra,
  });
}

const unsigned = () =>
  new AppError(ERROR_CODES.PERMISSION_FAILED, undefined, { reason: 'unsigned' });

/** The `exp` and `sig` of a signed media URL's query; 400003 `unsigned` when malformed. */
export function signedQuery(query: { exp?: unknown; sig?: unknown }): { exp: number; sig: string } {
  const { exp, sig } = query;
  if (typeof exp !== 'string' || !/^[0-9]{1,12}$/.test(exp)) throw unsigned();
  if (typeof sig !== 'string' || sig.length > 64) throw unsigned();
  return { exp: Number(exp), sig };
}

/** A signature that is not the server's, or expired: 400003 saying which. */
export function refuseUnless(check: SignatureCheck): void {
  if (check === 'ok') return;
  throw new AppError(ERROR_CODES.PERMISSION_FAILED, undefined, {
    reason: check === 'expired' ? 'expired' : 'bad_signature',
  });
}

/** The shared secret of the signed URLs: configured, or made once and kept in the database. */
export async function resolveMediaSecret(
  db: Db,
  config: Pick<Config, 'mediaSecret'>,
): Promise<string> {
  if (config.mediaSecret) return config.mediaSecret;
  const stored = await settingsRepository.get(db, SECRET_KEY);
  if (stored) return stored.value;
  await settingsRepository.insertIfAbsent(
    db,
    SECRET_KEY,
    randomBytes(32).toString('base64url'),
    Date.now(),
  );
  return (await settingsRepository.get(db, SECRET_KEY))!.value;
}

/**
 * Uploads checked by their bytes, stored once per content, and served only to their seat
 * through signed URLs. Messages and materials take media through `ownedFor`.
 */
export class MediaService {
  constructor(
    private readonly db: Db,
    private readonly storage: MediaStorage,
    readonly urls: MediaUrls,
    private readonly caps: Record<MediaKind, number>,
    /** Whether the store takes writes; a full or read-only one is a coded 507001 / 507002. */
    readonly health = new StorageHealth(),
  ) {}

  /** The cap while spooling: the kind's, or the largest one while the kind is unknown. */
  capFor(kind: string | undefined): number {
    const known = kind && Object.hasOwn(this.caps, kind) ? (kind as MediaKind) : null;
    return known ? this.caps[known] : Math.max(...Object.values(this.caps));
  }

  /** A temp file path in the media store (same disk, so a spooled file moves in cheaply). */
  tempPath(): Promise<string> {
    return this.storage.tempPath();
  }

  async spool(source: Readable, kind: string | undefined): Promise<Spooled> {
    let target: string;
    try {
      target = await this.storage.tempPath();
    } catch (err) {
      throw this.refusal(err);
    }
    try {
      return await spool(source, target, this.capFor(kind));
    } catch (err) {
      throw this.refusal(err instanceof SpoolWriteError ? err.cause : err);
    }
  }

  /** A failed write as answered: 507001 / 507002 when the store is at fault, else as it came. */
  private refusal(err: unknown): unknown {
    return this.health.failed(err) ?? err;
  }

  /** POST /v1/seat/chat/upload once the form is read: fields first, then the bytes. */
  async upload(seatId: number, form: UploadForm): Promise<Media> {
    try {
      const fields = parseBody<{ kind: MediaKind; duration_ms?: number }>(
        uploadFields,
        form.fields,
      );
      if (!form.file) throw invalidField('file', 'required');
      const row = await this.store(seatId, {
        kind: fields.kind,
        durationMs: fields.duration_ms,
        fileName: form.file.fileName,
        spooled: form.file,
      });
      return this.present(row, seatId);
    } finally {
      if (form.file) await rm(form.file.path, { force: true });
    }
  }

  /** A local file (the CLI's simulated customer upload), through the same checks. */
  async storeFile(seatId: number, filePath: string, kind?: MediaKind): Promise<MediaRow> {
    const spooled = await this.spool(createReadStream(filePath), kind);
    try {
      const chosen = kind ?? (spooled.overflow ? 'file' : kindOf(await sniffFile(spooled.path)));
      return await this.store(seatId, {
        kind: chosen,
        fileName: path.basename(filePath),
        spooled,
      });
    } finally {
      await rm(spooled.path, { force: true });
    }
  }

  /** Bytes received whole (a channel's inbound base64 or multipart media), same checks. */
  async storeBytes(
    seatId: number,
    bytes: Buffer,
    input: { kind?: MediaKind; fileName?: string; durationMs?: number },
  ): Promise<MediaRow> {
    const spooled = await this.spool(Readable.from([bytes]), input.kind);
    try {
      const chosen =
        input.kind ?? (spooled.overflow ? 'file' : kindOf(await sniffFile(spooled.path)));
      return await this.store(seatId, {
        kind: chosen,
        fileName: input.fileName,
        durationMs: input.durationMs,
        spooled,
      });
    } finally {
      await rm(spooled.path, { force: true });
    }
  }

  /** Bytes from a channel (a file a customer sent it), through the same checks. */
  async storeStream(
    seatId: number,
    source: Readable,
    input: { kind: MediaKind; fileName?: string; durationMs?: number },
  ): Promise<MediaRow> {
    const spooled = await this.spool(source, input.kind);
    try {
      return await this.store(seatId, { ...input, spooled });
    } finally {
      await rm(spooled.path, { force: true });
    }
  }

  /** A seat's stored media and its bytes (outbound delivery); null if gone. */
  async stored(seatId: number, mediaId: string) {
    const row = await mediaRepository.findForSeat(this.db, seatId, mediaId);
    if (!row) return null;
    return { row, open: async () => this.storage.read(row.sha256) };
  }

  /**
   * Checks spooled bytes against their kind and stores them: the size cap, not empty, the
   * type by the bytes (never the name or the declared type), images decodable (dimensions and
   * thumbnail). Nothing is stored when a check fails.
   */
  private async store(
    seatId: number,
    input: { kind: MediaKind; durationMs?: number; fileName?: string; spooled: Spooled },
  ): Promise<MediaRow> {
    const { kind, spooled } = input;
    const cap = this.caps[kind];
    if (spooled.overflow || spooled.size > cap) {
      throw fileError(`too large: at most ${describeBytes(cap)} for ${kind}`, { max_bytes: cap });
    }
    if (spooled.size === 0) throw fileError('empty file');
    const sniffed = await sniffFile(spooled.path);
    const mime = mimeForKind(kind, sniffed);
    if (!mime) {
      const strict = kind as Exclude<MediaKind, 'file'>;
      throw fileError(`not ${NOUN[strict]} (${KIND_ACCEPTS[strict]})`);
    }
    let image: Awaited<ReturnType<typeof readImage>> = null;
    if (kind === 'image' || mime.startsWith('image/')) {
      image = await readImage(spooled.path);
      if (!image && kind === 'image') throw fileError('not a readable image');
    }

    // The thumbnail first: the original moving in is the last write (a rename, no new space),
    // so a store that fills up meanwhile leaves no media without its thumbnail.
    let thumbSha: string | null = null;
    try {
      if (image?.thumb) {
        thumbSha = createHash('sha256').update(image.thumb).digest('hex');
        await this.storage.putBuffer(thumbSha, image.thumb);
      }
      await this.storage.putFile(spooled.sha256, spooled.path);
    } catch (err) {
      throw this.refusal(err);
    }
    this.health.succeeded();
    const fallback = sniffed.ext ? `${kind}.${sniffed.ext}` : kind;
    const timed = kind === 'audio' || kind === 'video';
    return mediaRepository.insert(this.db, {
      media_id: randomBytes(16).toString('base64url'),
      seat_id: seatId,
      kind,
      sha256: spooled.sha256,
      mime,
      size: spooled.size,
      file_name: sanitizeFileName(input.fileName, fallback),
      width: image?.width ?? null,
      height: image?.height ?? null,
      duration_ms: timed ? (input.durationMs ?? null) : null,
      thumb_sha256: thumbSha,
      created_at: Date.now(),
    });
  }

  present(row: MediaRow, seatId: number): Media {
    return toMedia(toStoredMedia(row), seatId, this.urls);
  }

  /**
   * This seat's media for a message or a material: another seat's id or an unknown one is
   * 400001; a media of a kind that does not fit is 100001 naming `field`.
   */
  async ownedFor(
    db: Db,
    seatId: number,
    mediaId: string,
    accepts: readonly MediaKind[],
    field = 'media_id',
  ): Promise<MediaRow> {
    const row = await mediaRepository.findForSeat(db, seatId, mediaId);
    if (!row) throw notFound();
    if (!accepts.includes(row.kind)) {
      throw invalidField(field, `needs ${accepts.join(' or ')} media, got ${row.kind}`);
    }
    return row;
  }

  /**
   * GET /v1/seat/media/{media_id}[/thumb]: the signature must be the server's, for this
   * media, not expired (else 400003), and the media this seat's (else 400001, like a
   * missing one).
   */
  async open(
    mediaId: string,
    query: { seat?: unknown; exp?: unknown; sig?: unknown },
    variant: 'original' | 'thumb',
  ): Promise<ServedMedia> {
    const { seat } = query;
    const { exp, sig } = signedQuery(query);
    if (typeof seat !== 'string' || !/^[1-9][0-9]{0,9}$/.test(seat)) throw unsigned();
    const seatId = Number(seat);
    refuseUnless(this.urls.check({ seatId, mediaId, exp, sig }));
    if (!MEDIA_ID.test(mediaId)) throw notFound();
    const row =
      (await mediaRepository.findForSeat(this.db, seatId, mediaId)) ??
      (await mediaRepository.findShownToSeat(this.db, seatId, mediaId));
    if (!row) throw notFound();
    return this.serving(row, variant);
  }

  /** What a media GET sends of a stored media (its original or its thumbnail). */
  async serving(row: MediaRow, variant: 'original' | 'thumb'): Promise<ServedMedia> {
    const sha256 = variant === 'thumb' ? row.thumb_sha256 : row.sha256;
    if (!sha256) throw notFound();
    const size = await this.storage.size(sha256);
    if (size === null) throw notFound();
    if (variant === 'thumb') {
      return { sha256, size, contentType: 'image/webp', inline: true, fileName: row.file_name };
    }
    const inline = isInlineMime(row.mime);
    return {
      sha256,
      size,
      contentType: inline ? row.mime : 'application/octet-stream',
      inline,
      fileName: row.file_name,
    };
  }

  read(sha256: string, range?: { start: number; end: number }): Readable {
    return this.storage.read(sha256, range);
  }
}
