import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SessionItem, TeamQueue } from '@parley/protocol';
import { teamQueuesQuery } from '../api/team-api';

const NO_TEAMS: TeamQueue[] = [];

/** The seat's team queues (empty for a seat of no team: the Queue place is not shown). */
export function useTeamQueues(): TeamQueue[] {
  return useQuery(teamQueuesQuery()).data?.teams ?? NO_TEAMS;
}

/** The queues' total count and the longest wait's start (null when none waits). */
export function queueSummary(teams: readonly TeamQueue[]) {
  let count = 0;
  let oldest: number | null = null;
  for (const t of teams) {
    count += t.count;
    if (t.oldest_since !== null && (oldest === null || t.oldest_since < oldest))
      oldest = t.oldest_since;
  }
  return { count, oldest };
}

/** Whether a chat of the seat's list is on one of its team accounts. */
export function useIsTeamChat(user: Pick<SessionItem, 'send_phone'> | null): boolean {
  const teams = useTeamQueues();
  return user !== null && teams.some((t) => t.send_phone === user.send_phone);
}

/** Now, moved on every `everyMs` (a wait shown keeps growing without a new event). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A wait as minutes (below an hour) or hours and minutes: the parts the strings take. */
export function waitParts(since: number, now: number): { h: number; m: number } {
  const minutes = Math.max(0, Math.floor((now - since) / 60_000));
  return { h: Math.floor(minutes / 60), m: minutes % 60 };
}
