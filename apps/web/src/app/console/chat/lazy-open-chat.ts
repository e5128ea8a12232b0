import { lazy } from 'react';
import { retrying } from '../../../lib/retrying-import';

const load = retrying(() => import('./open-chat'));

/** Fetches the open chat's code ahead (the pointer is over the user list). */
export const preloadOpenChat = () => void load();

export const OpenChat = lazy(async () => ({ default: (await load()).OpenChat }));
