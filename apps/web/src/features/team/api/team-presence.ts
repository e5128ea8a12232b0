import type { TeamPresence } from '@parley/protocol';
import { createStore, useStore } from '../../../lib/create-store';
import { onLogout } from '../../../lib/login-session';

/** Who else is looking at a chat: by chat, the members' last word and when it expires. */
export interface PresenceEntry {
  seatId: number;
  nickname: string;
  state: 'viewing' | 'typing';
  /** Epoch ms of this console's clock: forgotten after it (a crashed tab says nothing). */
  until: number;
}

type PresenceMap = Record<number, PresenceEntry[]>;

export const teamPresence = createStore<PresenceMap>({});
onLogout(() => teamPresence.set({}));

const EMPTY: PresenceEntry[] = [];

/**
 * A pushed `presence` frame: the member's entry replaced (or removed when it left). Its time to
 * live runs from now on this console's clock, so the two clocks need not agree.
 */
export function applyPresence(p: TeamPresence, now = Date.now()): void {
  teamPresence.set((m) => {
    const others = (m[p.session_id] ?? EMPTY).filter((e) => e.seatId !== p.seat_id);
    const next =
      p.state === 'left'
        ? others
        : [
            ...others,
            { seatId: p.seat_id, nickname: p.nickname, state: p.state, until: now + p.ttl_ms },
          ];
    return { ...m, [p.session_id]: next };
  });
}

/** The entries of a chat still alive at `now` (typing first, then by name). */
export function alivePresence(entries: readonly PresenceEntry[], now: number): PresenceEntry[] {
  return entries
    .filter((e) => e.until > now)
    .sort(
      (a, b) =>
        Number(b.state === 'typing') - Number(a.state === 'typing') ||
        a.nickname.localeCompare(b.nickname),
    );
}

export function usePresenceEntries(sessionId: number): PresenceEntry[] {
  return useStore(teamPresence, (m) => m[sessionId] ?? EMPTY);
}
