import { fileTypeFromFile } from 'file-type';
import type { MediaKind } from '@parley/protocol';

/**
 * What the bytes are, whatever the file is called or declared as. `file-type` reads the magic
 * numbers (and container details: MP4 brands, Matroska doctype, Ogg codec headers); the kind
 * rules below map its answer onto the few types each kind accepts.
 */
export interface Sniffed {
  ext: string | null;
  /** file-type's MIME, or null when the bytes match no known binary format. */
  mime: string | null;
}

export async function sniffFile(file: string): Promise<Sniffed> {
  const type = await fileTypeFromFile(file);
  return { ext: type?.ext ?? null, mime: type?.mime ?? null };
}

/** Detected MIME -> the MIME we store and serve, per kind. Anything absent is refused. */
const IMAGE: Record<string, string> = {
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
};
const AUDIO: Record<string, string> = {
  'audio/ogg; codecs=opus': 'audio/ogg',
  'audio/ogg': 'audio/ogg',
  'audio/mpeg': 'audio/mpeg',
  'audio/x-m4a': 'audio/mp4',
  'audio/mp4': 'audio/mp4',
  // Safari records voice notes as MP4 with a generic brand.
  'video/mp4': 'audio/mp4',
  'audio/aac': 'audio/aac',
  'audio/wav': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/x-wav': 'audio/wav',
  // Chrome and Firefox record voice notes as audio/webm;codecs=opus (WebM doctype).
  'video/webm': 'audio/webm',
  'audio/webm': 'audio/webm',
  'audio/flac': 'audio/flac',
  'audio/x-flac': 'audio/flac',
};
const VIDEO: Record<string, string> = {
  'video/mp4': 'video/mp4',
  'video/x-m4v': 'video/mp4',
  'video/webm': 'video/webm',
  'video/quicktime': 'video/quicktime',
};
const RULES: Record<Exclude<MediaKind, 'file'>, Record<string, string>> = {
  image: IMAGE,
  audio: AUDIO,
  video: VIDEO,
};

/** What each kind accepts, for the refusal message. */
export const KIND_ACCEPTS: Record<Exclude<MediaKind, 'file'>, string> = {
  image: 'JPEG, PNG, GIF or WebP',
  audio: 'Ogg/Opus, MP3, M4A/AAC, WAV, WebM audio or FLAC',
  video: 'MP4, WebM or QuickTime',
};

/** Served inline with their own type; every other stored type goes out as an attachment. */
const INLINE = new Set([...Object.values(IMAGE), ...Object.values(AUDIO), ...Object.values(VIDEO)]);

export function isInlineMime(mime: string): boolean {
  return INLINE.has(mime);
}

/**
 * The stored MIME of bytes uploaded as `kind`, or null when the kind refuses them. A `file`
 * takes any bytes: its type is the matching media type when there is one (so a photo sent as
 * a document still previews), else what was detected, else application/octet-stream.
 */
export function mimeForKind(kind: MediaKind, sniffed: Sniffed): string | null {
  const detected = sniffed.mime;
  if (kind !== 'file') return detected ? (RULES[kind][detected] ?? null) : null;
  if (!detected) return 'application/octet-stream';
  return IMAGE[detected] ?? VIDEO[detected] ?? AUDIO[detected] ?? detected;
}

/** The kind bytes most likely are (the CLI's inbound file without --kind). */
export function kindOf(sniffed: Sniffed): MediaKind {
  for (const kind of ['image', 'audio', 'video'] as const) {
    // An MP4 or WebM is a video unless its brand says audio.
    if (kind === 'audio' && (sniffed.mime === 'video/mp4' || sniffed.mime === 'video/webm')) {
      continue;
    }
    if (mimeForKind(kind, sniffed)) return kind;
  }
  return 'file';
}
