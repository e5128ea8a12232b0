import '../../../components/mantine-console-styles';
import { useState } from 'react';
import { Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@parley/protocol';
import { ContextMenu, type ContextMenuState } from '../../../components/context-menu';
import type { DisplayMessage } from '../../messages/api/merge-messages';
import { copyText, useMessageActions } from '../hooks/use-message-actions';
import { DeleteMessageDialog } from './delete-message-dialog';

interface Props {
  state: ContextMenuState<DisplayMessage> | null;
  onClose: () => void;
  /** False in a chat that cannot be written to (blocked). */
  canReply?: boolean;
}

/** The right-click menu of a message bubble: copy (with its translation), reply, translate, delete. */
export function MessageContextMenu({ state, onClose, canReply = true }: Props) {
  const { t } = useTranslation('message-actions');
  const actions = useMessageActions();
  const [deleting, setDeleting] = useState<ChatMessage | null>(null);
  const m = state?.item;
  // A local insert is not on the server yet: nothing to delete or translate there.
  const stored = m !== undefined && !('isLocalInsert' in m) ? (m as ChatMessage) : null;
  const withTranslation = stored ? actions.translationToCopy(stored) : '';

  return (
    <>
      <ContextMenu state={state} onClose={onClose} testId="message-context-menu">
        {m && (
          <>
            <Menu.Item
              disabled={copyText(m) === ''}
              onClick={() => void actions.copy(m)}
              data-testid="message-action-copy"
            >
              {t('copy')}
            </Menu.Item>
            {withTranslation && (
              <Menu.Item
                onClick={() => m && void actions.copy(m, withTranslation)}
                data-testid="message-action-copy-translation"
              >
                {t('copyWithTranslation')}
              </Menu.Item>
            )}
            <Menu.Item
              disabled={!stored || m.deleted || !canReply}
              onClick={() => stored && actions.reply(stored)}
              data-testid="message-action-reply"
            >
              {t('reply')}
            </Menu.Item>
            <Menu.Item
              disabled={!stored || m.deleted}
              onClick={() => stored && actions.translate(stored)}
              data-testid="message-action-translate"
            >
              {t('translate')}
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item
              color="red"
              disabled={!stored}
              onClick={() => setDeleting(stored)}
              data-testid="message-action-delete"
            >
              {t('delete')}
            </Menu.Item>
          </>
        )}
      </ContextMenu>
      {deleting && (
        <DeleteMessageDialog
          key={deleting.msg_id}
          message={deleting}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}
