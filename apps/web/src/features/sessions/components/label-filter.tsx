import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setLabelFilter, useConsole } from '../../../stores/console.store';
import { useLabels } from '../../labels/api/labels-api';

/**
 * The chat list's label filter, beside the reply filter: shown once the owner defined labels.
 * A label deleted meanwhile leaves the filter on "All labels".
 */
export function LabelFilter() {
  const { t } = useTranslation('chat');
  const labels = useLabels();
  const labelFilter = useConsole((s) => s.labelFilter);
  if (labels.length === 0) return null;
  const known = labels.some((l) => l.label_id === labelFilter);
  return (
    <Select
      size="xs"
      w={140}
      aria-label={t('labels.filter')}
      data-testid="label-filter"
      value={known ? String(labelFilter) : '0'}
      onChange={(v) => setLabelFilter(Number(v ?? 0))}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      data={[
        { value: '0', label: t('labels.all') },
        ...labels.map((l) => ({ value: String(l.label_id), label: l.name })),
      ]}
    />
  );
}
