import '../../../components/mantine-console-styles';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal';
import { closeSessionDialog, useSessionDialog } from '../../../stores/session-dialogs.store';
import { useSessionActions } from '../../sessions/hooks/use-session-actions';
import { MoveDialog } from './move-dialog';
import { RemarkDialog } from './remark-dialog';

/** The chat action dialogs, mounted once in the console; any menu or card opens them. */
export function SessionDialogs() {
  const { t } = useTranslation('session-actions');
  const dialog = useSessionDialog();
  const actions = useSessionActions();
  const [busy, setBusy] = useState(false);

  const confirmDelete = async () => {
    if (dialog?.kind !== 'delete') return;
    setBusy(true);
    try {
      await actions.remove(dialog.session);
      closeSessionDialog();
    } catch {
      // The request layer showed the translated error; the dialog stays for another try.
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {dialog?.kind === 'remark' && (
        <RemarkDialog
          key={dialog.session.session_id}
          session={dialog.session}
          onClose={closeSessionDialog}
        />
      )}
      {dialog?.kind === 'move' && (
        <MoveDialog
          key={dialog.session.session_id}
          session={dialog.session}
          onClose={closeSessionDialog}
        />
      )}
      <ConfirmModal
        opened={dialog?.kind === 'delete'}
        title={t('deleteTitle')}
        message={dialog ? t('deleteConfirm', { phone: dialog.session.receiver_phone }) : ''}
        confirmLabel={t('deleteSubmit')}
        danger
        loading={busy}
        testId="delete-chat-confirm"
        onConfirm={() => void confirmDelete()}
        onCancel={closeSessionDialog}
      />
    </>
  );
}
