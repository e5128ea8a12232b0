import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { REMARK_MAX, type SessionItem } from '@parley/protocol';
import { FormDialog } from '../../../components/form-dialog';
import { useDialogSubmit } from '../../../components/use-dialog-submit';
import { useSessionActions } from '../../sessions/hooks/use-session-actions';
import { remarkError } from '../../sessions/api/session-validation';

interface Props {
  session: SessionItem;
  onClose: () => void;
}

export function RemarkDialog({ session, onClose }: Props) {
  const { t } = useTranslation('session-actions');
  const actions = useSessionActions();
  const [value, setValue] = useState(session.remark);
  const { busy, error, setError, run } = useDialogSubmit(t('failed'));

  const save = async () => {
    if (remarkError(value)) return setError(t('remarkTooLong', { max: REMARK_MAX }));
    await run(async () => {
      await actions.setRemark(session, value.trim());
      onClose();
    });
  };

  return (
    <FormDialog
      title={t('remarkTitle')}
      onClose={onClose}
      onSubmit={save}
      busy={busy}
      submitLabel={t('common:actions.save')}
      submitTestId="remark-save"
      testId="remark-dialog"
    >
      <TextInput
        label={t('remarkLabel', { phone: session.receiver_phone })}
        placeholder={t('remarkPlaceholder')}
        value={value}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setError(null);
        }}
        error={error}
        data-autofocus
        data-testid="remark-input"
      />
    </FormDialog>
  );
}
