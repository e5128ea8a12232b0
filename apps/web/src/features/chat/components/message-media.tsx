import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { assertNever } from '@parley/protocol';
import type { DisplayMessage } from '../../messages/api/merge-messages';
import type { LocalMessage } from '../../messages/local-messages.store';
import { FileMedia } from './file-media';
import { ImageMedia } from './image-media';
import { PlayableMedia } from './playable-media';
import { UploadingMedia } from './uploading-media';

/** The media of an image, audio, video or file message, incoming or outgoing alike. */
export function MessageMedia({ message }: { message: DisplayMessage }) {
  const { t } = useTranslation('chat');
  const local = 'isLocalInsert' in message ? (message as LocalMessage) : null;
  if (local?.upload) return <UploadingMedia local={local} />;
  const media = message.media;
  if (!media) {
    return (
      <Text size="sm" c="dimmed">
        [{t(`messageType.${message.type}`)}]
      </Text>
    );
  }
  switch (message.type) {
    case 'image':
      return <ImageMedia media={media} />;
    case 'audio':
    case 'video':
      return <PlayableMedia kind={message.type} media={media} />;
    case 'file':
    case 'text':
      return <FileMedia media={media} />;
    default:
      // A new message type fails to compile here until it is shown.
      return assertNever(message.type, 'message type');
  }
}
