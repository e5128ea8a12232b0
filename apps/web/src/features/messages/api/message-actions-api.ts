import type { DELETE_MESSAGE_SCOPES } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

export type DeleteScope = (typeof DELETE_MESSAGE_SCOPES)[number];

/** del_message; errors are shown by the caller (the refusal after the window has a reason). */
export function deleteMessage(msg_id: number, scope: DeleteScope) {
  return callApi('/v1/seat/chat/del_message', { msg_id, scope }, { notify: false });
}
