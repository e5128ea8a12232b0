import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Stack, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MESSAGE_TEXT_MAX, type QuickReply, type SessionItem } from '@parley/protocol';
import { ThrottledButton } from '../../../components/throttled-button';
import { insertIntoTextarea } from '../../../lib/insert-at-caret';
import { EmojiPicker } from '../../../features/emoji/components/emoji-picker';
import { PendingMaterial } from '../../../features/quick-replies/components/pending-material';
import { QuickReplyButton } from '../../../features/quick-replies/components/quick-reply-button';
import { SlashSuggestions } from '../../../features/quick-replies/components/slash-suggestions';
import { translationProblem } from '../../../features/translation/api/translation-api';
import { ComposerTranslateToggle } from '../../../features/translation/components/composer-translate-toggle';
import { ComposerTranslationPreview } from '../../../features/translation/components/composer-translation-preview';
import { useOutgoingTranslation } from '../../../features/translation/hooks/use-outgoing-translation';
import { showTranslationProblem } from '../../../features/translation/translation-notice';
import { useSendMaterial } from '../../../features/quick-replies/hooks/use-send-material';
import { useSlashSuggestions } from '../../../features/quick-replies/hooks/use-slash-suggestions';
import { pastedFiles } from '../../../features/chat/hooks/use-file-drop';
import type { VoiceNote } from '../../../features/chat/hooks/use-voice-recorder';
import { AttachButton } from '../../../features/chat/components/attach-button';
import { VoiceRecorder } from '../../../features/chat/components/voice-recorder';
import { LineIcon } from '../../../components/line-icon';
import { COMPOSER_ID, takeComposerFocusRequest } from '../../../lib/keyboard';
import { ReplyingTo } from './replying-to';
import classes from './composer.module.css';

/**
 * Where the browser sizes a field to its text (Chromium: CSS field-sizing), the composer leaves
 * it to CSS (composer.module.css): the JS autosize measures a hidden copy of the field after
 * every render, a forced layout of the whole page each time a chat opens.
 */
const CSS_SIZES_FIELDS =
  typeof CSS !== 'undefined' && typeof CSS.supports === 'function'
    ? CSS.supports('field-sizing', 'content')
    : false;

interface Props {
  user: SessionItem;
  disabled: boolean;
  /** `original`: what the operator wrote, when `text` is its translation. */
  onSend: (text: string, original?: string) => void;
  /** Files picked or pasted (sent as media). */
  onFiles: (files: File[]) => void;
  onVoice: (note: VoiceNote) => void;
}

/**
 * Text composer: Enter sends, Shift+Enter starts a new line. An image or audio material picked
 * from the slash list waits above it as an attachment, sent with the next Send (before the
 * text, if any) or removed.
 */
export function Composer({ user, disabled, onSend, onFiles, onVoice }: Props) {
  const { t } = useTranslation('chat');
  const [text, setText] = useState('');
  const [attachment, setAttachment] = useState<QuickReply | null>(null);
  const [translating, setTranslating] = useState(false);
  const outgoing = useOutgoingTranslation(user, text);
  const sendMaterial = useSendMaterial();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  // R pressed while this chat was still being built: the focus it asked for.
  useEffect(() => {
    if (takeComposerFocusRequest()) inputRef.current?.focus();
  }, []);
  const slash = useSlashSuggestions({ inputRef, text, setText, onAttach: setAttachment });
  const insert = (value: string) =>
    insertIntoTextarea(inputRef.current, text, setText, value, MESSAGE_TEXT_MAX);

  const submit = () => {
    if (disabled || translating) return;
    if (attachment) {
      sendMaterial(user, attachment);
      setAttachment(null);
    }
    const value = text.trim();
    if (!value) return;
    if (!outgoing.active) {
      onSend(value);
      setText('');
      return;
    }
    // Outgoing translation: the customer gets the translation; nothing is sent without one.
    setTranslating(true);
    outgoing
      .translate(value)
      .then((translated) => {
        onSend(translated, value);
        setText((current) => (current.trim() === value ? '' : current));
      })
      .catch((err: unknown) => showTranslationProblem(translationProblem(err)))
      .finally(() => setTranslating(false));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  // An image (or file) pasted from the clipboard is sent; pasted text goes in as usual.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = pastedFiles(e.clipboardData);
    if (files.length === 0 || disabled) return;
    e.preventDefault();
    onFiles(files);
  };

  return (
    <Stack
      gap={6}
      p="sm"
      pos="relative"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <SlashSuggestions slash={slash} />
      <ComposerTranslationPreview outgoing={outgoing} />
      {attachment && <PendingMaterial item={attachment} onRemove={() => setAttachment(null)} />}
      <ReplyingTo sessionId={user.session_id} />
      {/* Tools | text | voice | send; on a narrow pane the tools and voice move above the text
          (composer.module.css), so the text box keeps its width on a phone. */}
      <div className={classes.fold}>
        <div className={classes.row} data-testid="composer-row">
          <div className={classes.tools}>
            <EmojiPicker disabled={disabled} onPick={insert} />
            <QuickReplyButton disabled={disabled} onInsert={insert} />
            <AttachButton disabled={disabled} onFiles={onFiles} />
            <ComposerTranslateToggle outgoing={outgoing} disabled={disabled} />
          </div>
          <Textarea
            ref={inputRef}
            {...slash.inputProps}
            id={COMPOSER_ID}
            className={classes.text}
            {...(CSS_SIZES_FIELDS ? { rows: 1 } : { autosize: true, minRows: 1, maxRows: 6 })}
            maxLength={MESSAGE_TEXT_MAX}
            value={text}
            disabled={disabled}
            placeholder={disabled ? t('composer.disabled') : t('composer.placeholder')}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            data-testid="composer-input"
            aria-label={t('composer.placeholder')}
          />
          <div className={classes.voice}>
            <VoiceRecorder disabled={disabled} onRecorded={onVoice} />
          </div>
          <div className={classes.send}>
            <ThrottledButton
              onClick={submit}
              disabled={disabled || (!text.trim() && !attachment)}
              loading={translating}
              data-testid="composer-send"
              aria-label={t('composer.send')}
              className={classes.sendButton}
            >
              {/* On a narrow pane the icon alone (composer.module.css): the text keeps its room. */}
              <span className={classes.sendLabel}>{t('composer.send')}</span>
              <LineIcon size={18} className={classes.sendIcon} aria-hidden>
                <path d="M22 2 11 13" />
                <path d="M22 2 15 22l-4-9-9-4z" />
              </LineIcon>
            </ThrottledButton>
          </div>
        </div>
      </div>
    </Stack>
  );
}
