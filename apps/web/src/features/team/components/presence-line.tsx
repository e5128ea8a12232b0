import { useEffect, useState } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { alivePresence, usePresenceEntries } from '../api/team-presence';

/**
 * "Ana is viewing" / "Ana is typing": who else is looking at this chat, live. An entry shows
 * until its time to live runs out, checked each second (nothing else would end it).
 */
export function PresenceLine({ sessionId }: { sessionId: number }) {
  const { t } = useTranslation('team');
  const entries = usePresenceEntries(sessionId);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (entries.length === 0) return;
    // A word that just came shows at once (its end is after any earlier `now`); ends are checked each tick.
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [entries]);
  const alive = alivePresence(entries, now);
  if (alive.length === 0) return null;
  const [first] = alive;
  const text =
    first!.state === 'typing'
      ? t('presenceTyping', { name: first!.nickname })
      : alive.length === 1
        ? t('presenceViewing', { name: first!.nickname })
        : t('presenceMany', { names: alive.map((e) => e.nickname).join(', ') });
  return (
    <Text
      size="xs"
      c="teal.8"
      fw={600}
      role="status"
      data-testid="team-presence"
      data-state={first!.state}
      truncate
    >
      {text}
    </Text>
  );
}
