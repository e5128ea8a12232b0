import { useState } from 'react';
import { Button, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_TEXT_MAX,
  QUICK_REPLY_NAME_MAX,
  type CallInput,
  type QuickReply,
} from '@parley/protocol';
import { materialProblems, type MaterialProblem } from '../quick-reply-filter';
import { useMediaUpload } from '../../../lib/use-media-upload';
import { MaterialUpload } from './material-upload';

interface Props {
  kind: QuickReply['kind'];
  /** The material edited, or null for a new one. */
  item: QuickReply | null;
  onSave: (input: CallInput<'/v1/seat/chat/quickReplyDoType'>) => Promise<unknown>;
  onDone: () => void;
}

type Errors = Partial<Record<'name' | 'content' | 'media', MaterialProblem>>;

/** Create or edit a material: name and content required; image or audio must be uploaded. */
export function QuickReplyForm({ kind, item, onSave, onDone }: Props) {
  const { t } = useTranslation('quickReplies');
  const [name, setName] = useState(item?.name ?? '');
  const [content, setContent] = useState(item?.content ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const upload = useMediaUpload(item?.media ?? null);
  const mediaId = upload.media?.media_id ?? item?.media_id ?? null;

  const submit = async () => {
    const problems = materialProblems({ kind, name, content, mediaId });
    setErrors(problems);
    if (Object.keys(problems).length > 0 || upload.progress !== null) return;
    const fields = {
      kind,
      name: name.trim(),
      content: content.trim(),
      ...(kind !== 'text' && mediaId ? { media_id: mediaId } : {}),
    };
    setBusy(true);
    try {
      await onSave(item ? { type: 'edit', id: item.id, ...fields } : { type: 'add', ...fields });
      onDone();
    } catch {
      // The request layer has shown the error; the form keeps what was typed.
    } finally {
      setBusy(false);
    }
  };

  const message = (p: MaterialProblem | undefined) =>
    p ? t(`validation.${p === 'mediaRequired' ? `${p}.${kind}` : p}`) : null;

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="quick-reply-form"
    >
      <Stack>
        <Text fw={600}>{t(item ? `editTitle.${kind}` : `addTitle.${kind}`)}</Text>
        <TextInput
          label={t('name')}
          value={name}
          maxLength={QUICK_REPLY_NAME_MAX}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setErrors((x) => ({ ...x, name: undefined }));
          }}
          error={message(errors.name)}
          data-autofocus
          data-testid="quick-reply-name"
        />
        <Textarea
          label={t(kind === 'text' ? 'content' : 'caption')}
          value={content}
          autosize
          minRows={3}
          maxRows={8}
          maxLength={MESSAGE_TEXT_MAX}
          onChange={(e) => {
            setContent(e.currentTarget.value);
            setErrors((x) => ({ ...x, content: undefined }));
          }}
          error={message(errors.content)}
          data-testid="quick-reply-content"
        />
        {kind !== 'text' && (
          <MaterialUpload
            kind={kind}
            upload={upload}
            error={message(errors.media)}
            onPicked={() => setErrors((x) => ({ ...x, media: undefined }))}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} data-testid="quick-reply-cancel">
            {t('common:actions.cancel')}
          </Button>
          <Button
            type="submit"
            loading={busy}
            disabled={upload.progress !== null}
            data-testid="quick-reply-save"
          >
            {t('common:actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
