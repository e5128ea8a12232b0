import { newTabId } from '../../lib/tab-lock';

/** This page load's id in the one-tab-per-host lock. */
export const TAB_ID = newTabId();

let channel: BroadcastChannel | null = null;
export function tabChannel(): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  channel ??= new BroadcastChannel('parley.tabs');
  return channel;
}

export interface TakeoverMessage {
  type: 'takeover';
  id: string;
}
