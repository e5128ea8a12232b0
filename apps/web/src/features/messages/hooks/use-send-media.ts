import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '@mantine/notifications';
import type { MediaKind, SessionItem } from '@parley/protocol';
import { addLocal } from '../local-messages.store';
import { formatSize, isTooLarge, kindOf, maxBytes } from '../../../lib/media-rules';
import { startUpload } from '../outbox/media-uploads';
import { newLocalMessage } from './use-send-message';

interface MediaInput {
  file: Blob;
  fileName: string;
  kind: MediaKind;
  durationMs?: number;
}

/**
 * Sending files (picked, pasted, dropped) and voice notes: each shows at once as a local
 * insert with its upload progress, then is sent like text through the outbox. Files above the
 * protocol's cap for their kind are refused at once with a message (the server checks too).
 */
export function useSendMedia() {
  const { t, i18n } = useTranslation('media');

  const sendOne = useCallback(
    (user: SessionItem, input: MediaInput) => {
      if (isTooLarge(input.file, input.kind)) {
        notifications.show({
          color: 'red',
          title: t('tooLargeTitle'),
          message: t('tooLarge', {
            name: input.fileName,
            max: formatSize(maxBytes(input.kind), i18n.language),
            kind: t(`chat:messageType.${input.kind}`),
          }),
        });
        return;
      }
      const previewable = input.kind === 'image' || input.kind === 'audio';
      const local = newLocalMessage(user, {
        type: input.kind,
        content: '',
        status: 'pending',
        upload: {
          file: input.file,
          kind: input.kind,
          fileName: input.fileName,
          durationMs: input.durationMs,
          progress: 0,
          state: 'uploading',
          previewUrl: previewable ? URL.createObjectURL(input.file) : undefined,
        },
      });
      addLocal(local);
      startUpload(local);
    },
    [t, i18n],
  );

  const sendFiles = useCallback(
    (user: SessionItem, files: readonly File[]) => {
      for (const file of files) {
        sendOne(user, { file, fileName: file.name || 'file', kind: kindOf(file) });
      }
    },
    [sendOne],
  );

  const sendVoice = useCallback(
    (user: SessionItem, blob: Blob, fileName: string, durationMs: number) => {
      sendOne(user, { file: blob, fileName, kind: 'audio', durationMs });
    },
    [sendOne],
  );

  return { sendFiles, sendVoice };
}
