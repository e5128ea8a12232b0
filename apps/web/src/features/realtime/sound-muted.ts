import { createStore, useStore } from '../../lib/create-store';

// Apart from attention.ts: main.tsx clears it at logout, and the login screen's code should
// not carry the notifications and the beep with it (its 170 KB budget).
const MUTE_KEY = 'parley.soundMuted';

function readMuted(): boolean {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

/** The sound of new messages is muted (stored in this browser). */
export const soundMuted = createStore<boolean>(readMuted());

/** Logout forgets the choice (main.tsx registers it: logout on /login has not loaded this). */
export function clearSoundMuted(): void {
  localStorage.removeItem(MUTE_KEY);
  soundMuted.set(false);
}

export function useSoundMuted(): boolean {
  return useStore(soundMuted, (m) => m);
}

export function setSoundMuted(muted: boolean): void {
  if (muted) localStorage.setItem(MUTE_KEY, '1');
  else localStorage.removeItem(MUTE_KEY);
  soundMuted.set(muted);
}
