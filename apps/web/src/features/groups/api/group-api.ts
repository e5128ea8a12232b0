import type { CallInput } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

/** doGroup: add, rename or delete a group; the caller refetches the group list. */
export function saveGroup(input: CallInput<'/v1/seat/chat/doGroup'>) {
  return callApi('/v1/seat/chat/doGroup', input, { notify: false });
}
