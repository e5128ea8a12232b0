import { useState } from 'react';
import { UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Media } from '@parley/protocol';
import classes from '../../../components/media/message-media.module.css';
import { lazyDialog } from '../../../lib/lazy-component';

const ImageViewer = lazyDialog(async () => (await import('./image-viewer')).ImageViewer);

/** An image message: its thumbnail; a click opens the full image (its viewer loaded then). */
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
      <ImageViewer opened={open} media={media} onClose={() => setOpen(false)} />
    </>
  );
}
