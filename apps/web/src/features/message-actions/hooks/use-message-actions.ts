import { useMemo } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { chatKey, type ChatData } from '../../chat/api/chat-queries';
import {
  deleteMessage,
  withMessageRetracted,
  withoutMessage,
  type DeleteScope,
} from '../api/message-actions-api';
import { requestMessageTranslation } from '../translate-message';

/** What Copy needs of a message; a local insert (not stored yet) can be copied too. */
export type CopyableMessage = Pick<ChatMessage, 'deleted' | 'content' | 'media'>;

/** The text a message's "Copy" puts on the clipboard (a media message: its caption or file). */
export function copyText(m: CopyableMessage): string {
  if (m.deleted) return '';
  return m.content || m.media?.file_name || '';
}

export function useMessageActions() {
  const qc = useQueryClient();
  const { t } = useTranslation('message-actions');
  return useMemo(
    () => ({
      async copy(m: CopyableMessage) {
        try {
          await navigator.clipboard.writeText(copyText(m));
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
                : t('deleteFailed'),
            message: err instanceof ApiError ? err.message : '',
          });
          return false;
        }
        qc.setQueryData<ChatData>(chatKey(m.session_id), (d) =>
          scope === 'me' ? withoutMessage(d, m.msg_id) : withMessageRetracted(d, m.msg_id),
        );
        // The chat's last-message preview may have changed.
        void qc.invalidateQueries({ queryKey: ['sessions'] });
        return true;
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
  reason?: 'not_outgoing' | 'window_passed';
  window_minutes?: number;
}
