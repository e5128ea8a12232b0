import { useState } from 'react';
import { MultiSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CHAT_LABELS_MAX, type SessionItem } from '@parley/protocol';
import { setChatLabels, useLabels } from '../../labels/api/labels-api';
import { LabelChips } from '../../../components/label-chips';

/**
 * The customer's labels on the profile card: shown as chips, changed in a picker of the owner's
 * labels. The row and the card follow the answer's push (session.updated).
 */
export function LabelPicker({ user }: { user: SessionItem }) {
  const { t } = useTranslation('chat');
  const labels = useLabels();
  const [saving, setSaving] = useState(false);
  const current = user.labels ?? [];
  if (labels.length === 0) {
    return <LabelChips labels={current} testId="profile-labels" />;
  }
  const change = async (ids: string[]) => {
    setSaving(true);
    try {
      await setChatLabels(user.session_id, ids.map(Number));
    } catch {
      // The request layer showed the translated error; the chips stay as the server has them.
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <LabelChips labels={current} testId="profile-labels" />
      <MultiSelect
        size="xs"
        aria-label={t('labels.edit')}
        placeholder={t('labels.edit')}
        data-testid="label-picker"
        disabled={saving}
        maxValues={CHAT_LABELS_MAX}
        value={current.map((l) => String(l.label_id))}
        onChange={(ids) => void change(ids)}
        comboboxProps={{ withinPortal: true }}
        data={labels.map((l) => ({ value: String(l.label_id), label: l.name }))}
      />
    </>
  );
}
