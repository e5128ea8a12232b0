import { findLocal, removeLocal, updateLocal, type LocalMessage } from '../local-messages.store';
import { cancelUpload, startUpload } from './media-uploads';
import { initialLocalStatus, outboxRunner } from './outbox-runner';

/**
 * Retry of a failed local insert: a failed upload is uploaded again; a refused message is sent
 * again with the same client_msg_id.
 */
export function retryLocal(local: LocalMessage): void {
  const current = findLocal(local.session_id, local.client_msg_id);
  if (!current) return;
  if (current.upload) {
    startUpload(current);
    return;
  }
  updateLocal(local.session_id, local.client_msg_id, { status: initialLocalStatus(), error: null });
  outboxRunner.wake();
}

/** Drops a local insert that will not be sent (a refused message, a failed upload). */
export function discardLocal(local: LocalMessage): void {
  if (local.upload) cancelUpload(local);
  else removeLocal(local.session_id, local.client_msg_id);
}
