import { useState } from 'react';
import { Group, Modal, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { REMARK_MAX, type SessionItem } from '@parley/protocol';
import { ThrottledButton } from '../../../components/throttled-button';
import { ApiError } from '../../../lib/api-core';
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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (remarkError(value)) return setError(t('remarkTooLong', { max: REMARK_MAX }));
    setBusy(true);
    try {
      await actions.setRemark(session, value.trim());
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('remarkTitle')} centered>
      <form
        data-testid="remark-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack>
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
          <Group justify="flex-end">
            <ThrottledButton type="submit" loading={busy} data-testid="remark-save">
              {t('common:actions.save')}
            </ThrottledButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
