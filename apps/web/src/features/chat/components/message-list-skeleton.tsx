import { Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './message-bubble.module.css';

/** Bubble shapes, theirs and ours, of varied widths: the look of a chat, not a pattern. */
const SHAPES = [
  { out: false, width: 220, height: 36 },
  { out: false, width: 150, height: 36 },
  { out: true, width: 260, height: 52 },
  { out: false, width: 190, height: 36 },
  { out: true, width: 120, height: 36 },
  { out: true, width: 230, height: 36 },
] as const;

/** The message list while a chat's record loads: the pane is never blank after a switch. */
export function MessageListSkeleton() {
  const { t } = useTranslation('chat');
  return (
    <Stack
      gap={0}
      h="100%"
      justify="flex-end"
      py="xs"
      role="status"
      aria-busy="true"
      aria-label={t('loadingMessages')}
      data-testid="message-list-skeleton"
    >
      {SHAPES.map((shape, i) => (
        <div key={i} className={classes.row} data-out={shape.out}>
          <Skeleton w={shape.width} maw="70%" h={shape.height} radius="lg" />
        </div>
      ))}
    </Stack>
  );
}
