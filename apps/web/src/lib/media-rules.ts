import { MEDIA_MAX_BYTES_DEFAULT, type MediaKind } from '@parley/protocol';

/** The kind a picked, pasted or dropped file is sent as: it follows the file's type. */
export function kindOf(file: Pick<Blob, 'type'>): MediaKind {
  const type = file.type.toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return 'file';
}

/** The protocol's default cap for the kind (the server checks its own, possibly lower). */
export function maxBytes(kind: MediaKind): number {
  return MEDIA_MAX_BYTES_DEFAULT[kind];
}

export function isTooLarge(file: Pick<Blob, 'size'>, kind: MediaKind): boolean {
  return file.size > maxBytes(kind);
}

const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** A byte count for people: 900 B, 1.5 KB, 12 MB (1024-based, at most one decimal). */
export function formatSize(bytes: number, locale = 'en'): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
  return `${number} ${UNITS[unit]}`;
}

/** A duration as m:ss (h:mm:ss from an hour), whole seconds elapsed (like a timer). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The voice-note formats to record, best first (Opus in WebM, else in Ogg). */
export const VOICE_MIME_TYPES = [
  'audio/webm;codecs=opus',
  'audio/ogg;codecs=opus',
  'audio/webm',
  'audio/ogg',
] as const;

/** The first format the browser can record, or undefined to let it choose. */
export function pickVoiceMime(isSupported: (mime: string) => boolean): string | undefined {
  return VOICE_MIME_TYPES.find((m) => isSupported(m));
}

/** The file name of a voice note recorded at `at` in `mime`. */
export function voiceFileName(mime: string, at: Date): string {
  const ext = mime.includes('ogg') ? 'ogg' : 'webm';
  const stamp = at.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `voice-${stamp}.${ext}`;
}
