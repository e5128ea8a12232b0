import { useRef, useState } from 'react';
import type { CallInput } from '@parley/protocol';
import { sendBatch } from '../api/batch-queries';
import { setBatchStatus } from '../batch.store';

/**
 * Sends the current batch once: a click while the request is on its way does nothing, and a
 * retry after a failure reuses the same batch_id, which the server stores once.
 */
export function useBatchSend() {
  const inFlight = useRef(false);
  const [sending, setSending] = useState(false);
  const send = async (input: CallInput<'/v1/seat/chat/batch_message'>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setSending(true);
    try {
      setBatchStatus(await sendBatch(input));
    } catch {
      // The request layer has shown the error; the dialog keeps what was written.
    } finally {
      inFlight.current = false;
      setSending(false);
    }
  };
  return { send, sending };
}
