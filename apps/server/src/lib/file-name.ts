export const FILE_NAME_MAX = 200;

// C0/C1 controls, and bidi overrides that make "gpj.exe" read as "exe.jpg".
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const RESERVED = /[<>:"|?*]/g;

/**
 * The name a file keeps for display and download: its last path segment, without control or
 * bidi characters, at most FILE_NAME_MAX characters (the extension kept). Only ever shown or
 * put in a Content-Disposition header, never used as a path.
 */
export function sanitizeFileName(raw: string | undefined, fallback: string): string {
  const base = (raw ?? '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  let name = base.replace(UNSAFE, '').replace(RESERVED, '_').trim();
  if (/^\.*$/.test(name)) return fallback;
  const chars = [...name];
  if (chars.length > FILE_NAME_MAX) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = chars.slice(0, FILE_NAME_MAX - [...ext].length).join('') + ext;
  }
  return name;
}

/** `attachment` / `inline` with the name, readable by every browser (RFC 6266 + 5987). */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
