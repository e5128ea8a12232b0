import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REMARK_MAX, type AddressBookEntry } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { applyRemark, saveRemark } from '../api/address-book-queries';
import { refreshLists } from '../../sessions/api/session-cache';

interface Props {
  entry: AddressBookEntry;
  onClose: () => void;
}

/** Edits a customer's remark (set_remark); an empty remark clears it. */
export function RemarkModal({ entry, onClose }: Props) {
  const { t } = useTranslation('addressBook');
  const qc = useQueryClient();
  const [value, setValue] = useState(entry.remark);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (value.trim().length > REMARK_MAX) {
      setError(t('remarkTooLong', { count: REMARK_MAX }));
      return;
    }
    setBusy(true);
    try {
      const saved = await saveRemark(entry.session_id, value);
      applyRemark(qc, saved.session_id, saved.remark);
      // The user lists show remarks too, and the search by remark must see the new one.
      refreshLists(qc, 'sessions');
      void qc.invalidateQueries({ queryKey: ['addressBook'] });
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('editRemarkTitle', { phone: entry.receiver_phone })}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextInput
          data-autofocus
          label={t('remark')}
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            if (error) setError(null);
          }}
          error={error}
          data-testid="address-book-remark-input"
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="address-book-remark-save">
            {t('common:actions.save')}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
