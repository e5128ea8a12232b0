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
  const chosen = labels.find((l) => l.label_id === labelFilter);
  const shown = chosen ? chosen.name : t('labels.all');
  // A line of its own under the reply filter, as wide as the list: "Todas as etiquetas" or a
  // long label's name did not fit beside it. What still does not fit ends in "…", whole in the
  // input's title.
  return (
    <Select
      size="xs"
      w="100%"
      title={shown}
      styles={{ input: { textOverflow: 'ellipsis' } }}
      aria-label={t('labels.filter')}
      data-testid="label-filter"
      value={chosen ? String(labelFilter) : '0'}
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
