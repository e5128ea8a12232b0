import { useState } from 'react';
import { Modal, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Media } from '@parley/protocol';
import classes from '../../../components/media/message-media.module.css';

/** An image message: its thumbnail; a click opens the full image (Escape or a click closes). */
export function ImageMedia({ media }: { media: Media }) {
  const { t } = useTranslation('media');
  const [open, setOpen] = useState(false);
  const ratio = media.width && media.height ? `${media.width} / ${media.height}` : undefined;
  return (
    <>
      <UnstyledButton
        onClick={() => setOpen(true)}
        className={classes.thumbButton}
        aria-label={t('openImage')}
        data-testid="message-image"
      >
        <img
          src={media.thumb_url ?? media.url}
          alt={media.file_name}
          className={classes.thumb}
          style={{ aspectRatio: ratio }}
          loading="lazy"
          data-testid="message-image-thumb"
        />
      </UnstyledButton>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
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
          onClick={() => setOpen(false)}
          data-testid="image-viewer"
        />
      </Modal>
    </>
  );
}
