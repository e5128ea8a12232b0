import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../../lib/media-rules';
import { MicIcon } from '../../../components/media/media-icons';
import { canRecord, useVoiceRecorder, type VoiceNote } from '../hooks/use-voice-recorder';

interface Props {
  disabled: boolean;
  onRecorded: (note: VoiceNote) => void;
}

/** The composer's microphone: record a voice note, then cancel it or stop and send it. */
export function VoiceRecorder({ disabled, onRecorded }: Props) {
  const { t } = useTranslation('media');
  const recorder = useVoiceRecorder((error) =>
    notifications.show({
      color: 'red',
      title: t('micTitle'),
      message: error === 'denied' ? t('micDenied') : t('micUnavailable'),
    }),
  );

  if (recorder.phase === 'recording') {
    return (
      <Group gap={6} wrap="nowrap" data-testid="voice-recording">
        <Text c="red" aria-hidden>
          ●
        </Text>
        <Text size="sm" ff="monospace" data-testid="voice-elapsed" aria-label={t('recording')}>
          {formatDuration(recorder.elapsedMs)}
        </Text>
        <ActionIcon
          variant="subtle"
          color="gray"
          onClick={recorder.cancel}
          aria-label={t('cancelRecording')}
          title={t('cancelRecording')}
          data-testid="voice-cancel"
        >
          ✕
        </ActionIcon>
        <Button
          size="xs"
          color="red"
          onClick={() => recorder.stopAndSend(onRecorded)}
          data-testid="voice-send"
        >
          {t('stopAndSend')}
        </Button>
      </Group>
    );
  }
  return (
    <ActionIcon
      variant="subtle"
      size="lg"
      disabled={disabled || !canRecord()}
      loading={recorder.phase === 'starting'}
      onClick={recorder.start}
      aria-label={t('record')}
      title={t('record')}
      data-testid="composer-mic"
    >
      <MicIcon />
    </ActionIcon>
  );
}
