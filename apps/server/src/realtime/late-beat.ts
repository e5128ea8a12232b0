/**
 * A heartbeat this many intervals after the one before is late: it found the event loop held
 * (a loaded machine, a long synchronous task), and the pongs answering the last ping may be
 * waiting unread behind it, since timers run before the loop reads its sockets. Such a beat
 * pings again and drops nobody; a dead peer is dropped at the next beat on time.
 */
const LATE_BEAT = 1.25;

/** Tells each beat whether it is late; call it once per beat, first thing. */
export function lateBeats(heartbeatMs: number): () => boolean {
  let last = 0;
  return () => {
    const now = Date.now();
    const late = last !== 0 && now - last > heartbeatMs * LATE_BEAT;
    last = now;
    return late;
  };
}
