import { soundMuted } from './sound-muted';

export { setSoundMuted, useSoundMuted } from './sound-muted';

const TITLE_PREFIX = /^\(\d+\) /;

/** The page title with the count of customer messages that arrived while the tab was hidden. */
export function titleWithCount(title: string, count: number): string {
  const base = title.replace(TITLE_PREFIX, '');
  return count > 0 ? `(${count}) ${base}` : base;
}

let unseen = 0;

/** A customer message arrived while the tab is hidden: title, sound, desktop notification. */
export function raiseAttention(title: string, body: string, tag: string): void {
  unseen += 1;
  document.title = titleWithCount(document.title, unseen);
  if (!soundMuted.get()) beep();
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
    try {
      new Notification(title, { body, tag });
    } catch {
      // Some browsers allow notifications from a service worker only.
    }
  }
}

/** The tab is seen again: the title loses its count. */
export function clearAttention(): void {
  unseen = 0;
  document.title = titleWithCount(document.title, 0);
}

/**
 * Asks once for desktop notifications, on a click (browsers ask only after a gesture). The
 * permission is read at that click, not when the console mounts: the first read is a round
 * trip to the browser (7 ms in the sign-in's longest task, issue 25).
 */
export function askNotificationsOnce(): () => void {
  if (typeof Notification === 'undefined') return () => undefined;
  const ask = () => {
    window.removeEventListener('click', ask);
    if (Notification.permission !== 'default') return;
    void Notification.requestPermission().catch(() => undefined);
  };
  window.addEventListener('click', ask);
  return () => window.removeEventListener('click', ask);
}

let audio: AudioContext | null = null;
/** A short two-tone chime, synthesised (no audio file to ship). */
function beep(): void {
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.12, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.001, now + i * 0.12 + 0.2);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.2);
    }
  } catch {
    // No audio in this browser: the title and the notification remain.
  }
}
