import type { CallInput } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

export interface BlockInput {
  type: 'block' | 'unblock';
  session_id: number;
}

const BLOCK_PATHS = {
  block: '/v1/seat/chat/block',
  unblock: '/v1/seat/chat/unblock',
} as const;

/** The spec's call: /block or /unblock, chosen by a `type` field that is removed from the body. */
export function blockOrUnblock({ type, ...body }: BlockInput) {
  return callApi(BLOCK_PATHS[type], body);
}

export function setTop(session_id: number, is_top: boolean) {
  return callApi('/v1/seat/chat/sessionDoTop', { session_id, is_top });
}

export function markUnread(session_id: number) {
  return callApi('/v1/seat/chat/markUnread', { session_id });
}

export function moveSession(session_id: number, group_id: number) {
  return callApi('/v1/seat/chat/moveSessionGroup', { session_id, group_id });
}

export function deleteSession(session_id: number) {
  return callApi('/v1/seat/chat/delSession', { session_id });
}

export function setRemark(session_id: number, remark: string) {
  return callApi('/v1/seat/chat/set_remark', { session_id, remark }, { notify: false });
}

export function getRemark(session_id: number, signal?: AbortSignal) {
  return callApi('/v1/seat/chat/get_remark', { session_id }, { signal });
}

export function oneClickRead(input: CallInput<'/v1/seat/chat/oneClickRead'>) {
  return callApi('/v1/seat/chat/oneClickRead', input);
}

/** The cached answer of get_remark for one chat (the profile card's remark). */
export const remarkKey = (sessionId: number) => ['remark', sessionId] as const;
