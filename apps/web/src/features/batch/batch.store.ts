import type { BatchStatus } from '@parley/protocol';
import { createStore, useStore } from '../../lib/create-store';
import { newClientMsgId } from '../../lib/client-msg-id';
import { onLogout } from '../../lib/login-session';

/** The batch being written or sent: one batch_id until the dialog closes or a new one starts. */
export interface BatchSendInfo {
  batch_id: string;
  /** The server's answer once sent (then polled until done); null while composing. */
  status: BatchStatus | null;
}

/** The spec's batch reply state. */
export interface BatchState {
  visible: boolean;
  batch_send_info: BatchSendInfo | null;
}

const initial: BatchState = { visible: false, batch_send_info: null };
export const batchStore = createStore<BatchState>(initial);
onLogout(() => batchStore.set(initial));

export function useBatch<S>(select: (s: BatchState) => S): S {
  return useStore(batchStore, select);
}

export function openBatch(): void {
  batchStore.set((s) =>
    s.visible
      ? s
      : { visible: true, batch_send_info: { batch_id: newClientMsgId(), status: null } },
  );
}

export function closeBatch(): void {
  batchStore.set(initial);
}

/** After a batch was sent: compose another one, with a new batch_id. */
export function startNewBatch(): void {
  batchStore.set({ visible: true, batch_send_info: { batch_id: newClientMsgId(), status: null } });
}

/** Records the server's status of the current batch (ignored if another batch started). */
export function setBatchStatus(status: BatchStatus): void {
  batchStore.set((s) =>
    s.batch_send_info?.batch_id === status.batch_id
      ? { ...s, batch_send_info: { ...s.batch_send_info, status } }
      : s,
  );
}
