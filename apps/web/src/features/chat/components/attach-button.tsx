import { useRef } from 'react';
import { ActionIcon, FileButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PaperclipIcon } from '../../../components/media/media-icons';

interface Props {
  disabled: boolean;
  onFiles: (files: File[]) => void;
}

/** Picks files to send; each goes as image, audio, video or file after its type. */
export function AttachButton({ disabled, onFiles }: Props) {
  const { t } = useTranslation('media');
  // Cleared after each pick, so picking the same file again sends it again.
  const resetRef = useRef<() => void>(null);
  return (
    <FileButton
      multiple
      resetRef={resetRef}
      disabled={disabled}
      onChange={(files) => {
        if (files.length > 0) onFiles(files);
        resetRef.current?.();
      }}
      inputProps={{ 'aria-label': t('attach') }}
    >
      {(props) => (
        <ActionIcon
          {...props}
          variant="subtle"
          size="lg"
          disabled={disabled}
          aria-label={t('attach')}
          title={t('attach')}
          data-testid="composer-attach"
        >
          <PaperclipIcon />
        </ActionIcon>
      )}
    </FileButton>
  );
}
