import '../../../components/mantine-console-styles';
import { Modal } from '@mantine/core';
import type { Media } from '@parley/protocol';
import classes from '../../../components/media/message-media.module.css';

interface Props {
  opened: boolean;
  media: Media;
  onClose: () => void;
}

/** The full image over the console (Escape or a click closes it). */
export function ImageViewer({ opened, media, onClose }: Props) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="auto"
      centered
      padding={0}
      withCloseButton={false}
      title={null}
      classNames={{ body: classes.viewerBody }}
    >
      <img
        src={media.url}
        alt={media.file_name}
        className={classes.viewerImage}
        onClick={onClose}
        data-testid="image-viewer"
      />
    </Modal>
  );
}
