import { uploadMedia } from '../../../lib/upload';
import { ApiError } from '../../../lib/api-core';
import { findLocal, removeLocal, updateLocal, type LocalMessage } from '../local-messages.store';
import { classifySendError } from './outbox-logic';

/** The abort handle of each upload in progress, by client_msg_id. */
const controllers = new Map<string, AbortController>();

function release(local: Pick<LocalMessage, 'client_msg_id' | 'upload'>): void {
  controllers.get(local.client_msg_id)?.abort();
  controllers.delete(local.client_msg_id);
  if (local.upload?.previewUrl) URL.revokeObjectURL(local.upload.previewUrl);
}

/**
 * Uploads the file of a local media message. On success the message holds its media and joins
 * the outbox (which sends it with the media_id and its client_msg_id); a failure marks it
 * failed with the reason (Retry uploads again); a cancel removes it.
 */
export function startUpload(local: LocalMessage): void {
  const upload = local.upload;
  if (!upload || controllers.has(local.client_msg_id)) return;
  const { session_id: sessionId, client_msg_id: cid } = local;
  const controller = new AbortController();
  controllers.set(cid, controller);
  updateLocal(sessionId, cid, {
    status: 'pending',
    error: null,
    upload: { ...upload, state: 'uploading', progress: 0 },
  });
  uploadMedia(upload.file, upload.kind, {
    fileName: upload.fileName,
    durationMs: upload.durationMs,
    signal: controller.signal,
    notify: false,
    onProgress: (progress) => {
      const current = findLocal(sessionId, cid);
      if (current?.upload) updateLocal(sessionId, cid, { upload: { ...current.upload, progress } });
    },
  }).then(
    (media) => {
      controllers.delete(cid);
      const current = findLocal(sessionId, cid);
      if (!current) return;
      if (current.upload?.previewUrl) URL.revokeObjectURL(current.upload.previewUrl);
      updateLocal(sessionId, cid, { media, upload: null });
    },
    (err: unknown) => {
      controllers.delete(cid);
      if (classifySendError(err) === 'cancelled') return;
      const current = findLocal(sessionId, cid);
      if (!current?.upload) return;
      const code = err instanceof ApiError ? err.code : '500001';
      const msg = err instanceof ApiError ? err.message : '';
      updateLocal(sessionId, cid, {
        status: 'failed',
        error: { code, msg },
        upload: { ...current.upload, state: 'failed' },
      });
    },
  );
}

/** Cancels an upload in progress (or a failed one): the message is gone. */
export function cancelUpload(local: LocalMessage): void {
  const current = findLocal(local.session_id, local.client_msg_id) ?? local;
  release(current);
  removeLocal(local.session_id, local.client_msg_id);
}
