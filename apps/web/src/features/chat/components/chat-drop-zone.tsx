import type { ReactNode } from 'react';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFileDrop } from '../hooks/use-file-drop';
import classes from '../../../components/media/message-media.module.css';

interface Props {
  enabled: boolean;
  onFiles: (files: File[]) => void;
  children: ReactNode;
}

/** The open chat (`chat-pane`): files dropped anywhere on it are sent to the chat. */
export function ChatDropZone({ enabled, onFiles, children }: Props) {
  const { t } = useTranslation('media');
  const { dragging, handlers } = useFileDrop(enabled, onFiles);
  return (
    <Stack h="100%" gap={0} pos="relative" data-testid="chat-pane" {...handlers}>
      {children}
      {dragging && (
        <div className={classes.dropOverlay} data-testid="drop-overlay">
          <Text fw={600} size="lg">
            {t('dropHere')}
          </Text>
        </div>
      )}
    </Stack>
  );
}
