import { useState } from 'react';
import { Alert, Group, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MESSAGE_TEXT_MAX, type QuickReply } from '@parley/protocol';
import { ThrottledButton } from '../../../components/throttled-button';
import { targetsOf, type useBatchSelection } from '../hooks/use-batch-selection';
import { useBatchSend } from '../hooks/use-batch-send';
import { BatchMaterialPicker } from './batch-material-picker';

type Mode = 'text' | 'material';

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
  const [problem, setProblem] = useState<'textRequired' | 'materialRequired' | null>(null);
  const { send, sending } = useBatchSend();
  const count = selection.count;

  const submit = () => {
    const noTarget = count === 0;
    setEmptyTarget(noTarget);
    const message =
      mode === 'text'
        ? text.trim()
          ? { type: 'text' as const, content: text }
          : null
        : material
          ? material.kind === 'text' || !material.media_id
            ? { type: 'text' as const, content: material.content }
            : { type: material.kind, content: '', media_id: material.media_id }
          : null;
    setProblem(message ? null : mode === 'text' ? 'textRequired' : 'materialRequired');
    if (noTarget || !message) return;
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
        ]}
        data-testid="batch-mode"
      />
      {mode === 'text' ? (
        <Textarea
          label={t('message')}
          autosize
          minRows={5}
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
      ) : (
        <BatchMaterialPicker
          value={material}
          onChange={(m) => {
            setMaterial(m);
            setProblem(null);
          }}
          error={problem === 'materialRequired' ? t('materialRequired') : null}
        />
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
