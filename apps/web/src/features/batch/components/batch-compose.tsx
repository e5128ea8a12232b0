import { useState } from 'react';
import { Alert, Group, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MESSAGE_TEXT_MAX, type MediaKind, type QuickReply } from '@parley/protocol';
import { ThrottledButton } from '../../../components/throttled-button';
import { useMediaUpload } from '../../../lib/use-media-upload';
import { targetsOf, type useBatchSelection } from '../hooks/use-batch-selection';
import { useBatchSend } from '../hooks/use-batch-send';
import { BatchMaterialPicker } from './batch-material-picker';
import { BatchMediaPicker } from './batch-media-picker';

type Mode = 'text' | 'material' | 'media';
type Problem = 'textRequired' | 'materialRequired' | 'fileRequired';
type Message =
  { type: 'text'; content: string } | { type: MediaKind; content: string; media_id: string };

interface Props {
  batchId: string;
  selection: ReturnType<typeof useBatchSelection>;
}

/** What to send and the send button; an empty target or message is refused with a message. */
export function BatchCompose({ batchId, selection }: Props) {
  const { t } = useTranslation('batch');
  const [mode, setMode] = useState<Mode>('text');
  const [text, setText] = useState('');
  const [material, setMaterial] = useState<QuickReply | null>(null);
  const [emptyTarget, setEmptyTarget] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const upload = useMediaUpload(null);
  const [mediaKind, setMediaKind] = useState<MediaKind>('file');
  const { send, sending } = useBatchSend();
  const count = selection.count;

  /** The message to send, or what is missing. */
  const compose = (): Message | Problem => {
    if (mode === 'text') return text.trim() ? { type: 'text', content: text } : 'textRequired';
    if (mode === 'media') {
      // The text, if any, goes with the file as its caption.
      const m = upload.media;
      return m ? { type: mediaKind, content: text, media_id: m.media_id } : 'fileRequired';
    }
    if (!material) return 'materialRequired';
    return material.kind === 'text' || !material.media_id
      ? { type: 'text', content: material.content }
      : { type: material.kind, content: '', media_id: material.media_id };
  };

  const submit = () => {
    const noTarget = count === 0;
    setEmptyTarget(noTarget);
    const composed = compose();
    const message = typeof composed === 'string' ? null : composed;
    setProblem(typeof composed === 'string' ? composed : null);
    if (noTarget || !message || upload.progress !== null) return;
    void send({ batch_id: batchId, ...targetsOf(selection.selection), ...message });
  };

  return (
    <Stack gap="sm" h="100%">
      <Text size="sm" data-testid="batch-count" data-count={count}>
        {t('chosen', { count })}
      </Text>
      <SegmentedControl
        value={mode}
        onChange={(v) => setMode(v as Mode)}
        data={[
          { value: 'text', label: t('mode.text') },
          { value: 'material', label: t('mode.material') },
          { value: 'media', label: t('mode.media') },
        ]}
        data-testid="batch-mode"
      />
      {mode === 'material' ? (
        <BatchMaterialPicker
          value={material}
          onChange={(m) => {
            setMaterial(m);
            setProblem(null);
          }}
          error={problem === 'materialRequired' ? t('materialRequired') : null}
        />
      ) : (
        <>
          {mode === 'media' && (
            <BatchMediaPicker
              upload={upload}
              error={problem === 'fileRequired' ? t('fileRequired') : null}
              onPicked={(kind) => {
                setMediaKind(kind);
                setProblem(null);
              }}
            />
          )}
          <Textarea
            label={mode === 'media' ? t('caption') : t('message')}
            autosize
            minRows={mode === 'media' ? 2 : 5}
            maxRows={10}
            maxLength={MESSAGE_TEXT_MAX}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              setProblem(null);
            }}
            error={problem === 'textRequired' ? t('textRequired') : null}
            data-testid="batch-text"
          />
        </>
      )}
      {emptyTarget && count === 0 && (
        <Alert color="orange" variant="light" data-testid="batch-empty-target">
          {t('emptyTarget')}
        </Alert>
      )}
      <Group justify="flex-end" mt="auto">
        <ThrottledButton onClick={submit} loading={sending} data-testid="batch-send">
          {t('send', { count })}
        </ThrottledButton>
      </Group>
    </Stack>
  );
}
