import { useMemo } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { removeMessage, retractMessage } from '../../messages/api/message-cache';
import { deleteMessage, type DeleteScope } from '../../messages/api/message-actions-api';
import { requestMessageTranslation, shownTranslationOf } from '../../../stores/message-translator';
import { quoteOf, setReplyTarget } from '../../../stores/reply-target.store';
import { COMPOSER_ID } from '../../../lib/keyboard';
import { refreshLists } from '../../sessions/api/session-cache';

/** What Copy needs of a message; a local insert (not stored yet) can be copied too. */
export type CopyableMessage = Pick<ChatMessage, 'deleted' | 'content' | 'media'>;

/** The text a message's "Copy" puts on the clipboard (a media message: its caption or file). */
export function copyText(m: CopyableMessage): string {
  if (m.deleted) return '';
  return m.content || m.media?.file_name || '';
}

/**
 * "Copy with translation": the message's words and their translation, one after the other:
 * an operator's translated message gives what they wrote and what the customer got; another
 * message its text and the translation shown under it. '' when it has no translation.
 */
export function copyWithTranslationText(
  m: CopyableMessage & Pick<ChatMessage, 'original_content'>,
  shown: string | undefined,
): string {
  const text = copyText(m);
  if (!text) return '';
  if (m.original_content) return `${m.original_content}\n\n${text}`;
  return shown ? `${text}\n\n${shown}` : '';
}

export function useMessageActions() {
  const qc = useQueryClient();
  const { t } = useTranslation('message-actions');
  return useMemo(
    () => ({
      async copy(m: CopyableMessage, text = copyText(m)) {
        try {
          await navigator.clipboard.writeText(text);
          notifications.show({ message: t('copied'), autoClose: 1500 });
        } catch {
          notifications.show({ color: 'red', message: t('copyFailed') });
        }
      },

      /** True when deleted; a refusal is shown (for all after its window: 400003). */
      async remove(m: ChatMessage, scope: DeleteScope): Promise<boolean> {
        try {
          await deleteMessage(m.msg_id, scope);
        } catch (err) {
          const reason = err instanceof ApiError ? (err.data as DeleteRefusal | null) : null;
          notifications.show({
            color: 'red',
            title:
              reason?.reason === 'window_passed'
                ? t('windowPassed', { count: reason.window_minutes ?? 0 })
                : reason?.reason === 'channel_cannot_delete'
                  ? t('channelCannotDelete')
                  : t('deleteFailed'),
            message: err instanceof ApiError ? err.message : '',
          });
          return false;
        }
        // In every open view of the chat (the live record and any window at a search hit).
        if (scope === 'me') removeMessage(qc, m.session_id, m.msg_id);
        else retractMessage(qc, m.session_id, m.msg_id);
        // The chat's last-message preview may have changed.
        refreshLists(qc, 'sessions');
        return true;
      },

      /** Quote it in the chat's composer, which takes the focus. */
      reply(m: ChatMessage) {
        setReplyTarget(m.session_id, quoteOf(m));
        document.getElementById(COMPOSER_ID)?.focus();
      },

      translationToCopy(m: ChatMessage): string {
        return copyWithTranslationText(m, shownTranslationOf(m));
      },

      translate(m: ChatMessage) {
        if (requestMessageTranslation(m) === 'disabled') {
          notifications.show({ color: 'yellow', message: t('translationDisabled') });
        }
      },
    }),
    [qc, t],
  );
}

interface DeleteRefusal {
  reason?: 'not_outgoing' | 'window_passed' | 'channel_cannot_delete';
  window_minutes?: number;
}
