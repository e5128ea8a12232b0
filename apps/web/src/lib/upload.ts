import { REQUEST_TIMEOUT_MS, UPLOAD_PATH, type Media, type MediaKind } from '@parley/protocol';
import { networkError, settle } from './api-client';
import { readToken } from './storage';

export interface UploadOptions {
  /** The name the file keeps for the customer and on download (defaults to the File's). */
  fileName?: string;
  /** Length of a recorded voice note or video. */
  durationMs?: number;
  /** Called with 0..1 as the bytes go out. */
  onProgress?: (fraction: number) => void;
  /** Aborting cancels the upload; the promise then rejects with a DOMException 'AbortError'. */
  signal?: AbortSignal;
  /** Show the generic error toast (default true). */
  notify?: boolean;
}

/**
 * Uploads one file (`POST /v1/seat/chat/upload`, multipart) and returns its media, whose
 * `media_id` then goes into a message, a batch or a material. XMLHttpRequest rather than
 * fetch: only it reports upload progress.
 */
export function uploadMedia(
  file: Blob,
  kind: MediaKind,
  options: UploadOptions = {},
): Promise<Media> {
  const notify = options.notify ?? true;
  return new Promise<Media>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new DOMException('Upload cancelled', 'AbortError'));
      return;
    }
    const form = new FormData();
    form.append('kind', kind);
    if (options.durationMs !== undefined)
      form.append('duration_ms', String(Math.round(options.durationMs)));
    const name = options.fileName ?? (file instanceof File ? file.name : 'upload');
    form.append('file', file, name);

    const xhr = new XMLHttpRequest();
    xhr.open('POST', UPLOAD_PATH);
    xhr.timeout = REQUEST_TIMEOUT_MS * 6; // large files on slow links; still bounded
    xhr.responseType = 'json';
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) options.onProgress?.(e.loaded / e.total);
    };
    const onAbort = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => options.signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      try {
        resolve(settle<Media>(xhr.response, notify));
      } catch (err) {
        reject(err);
      }
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('Upload cancelled', 'AbortError'));
    };
    xhr.onerror = xhr.ontimeout = () => {
      done();
      reject(networkError(notify));
    };
    xhr.send(form);
  });
}
