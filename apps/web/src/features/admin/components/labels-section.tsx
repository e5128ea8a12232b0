import '../mantine-admin-styles';
import { useState } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LABEL_COLORS, LABEL_NAME_MAX, type AdminLabel, type LabelColor } from '@parley/protocol';
import { LabelChips } from '../../../components/label-chips';
import { callAdmin } from '../api/admin-client';
import { adminKeys } from '../api/admin-queries';
import { useAdminAction } from '../hooks/use-admin-action';
import { ActionAlert } from './action-alert';
import { PageHeader } from './page-header';

/** Under the `labels` scope: the owner's change (here or pushed) refetches it. */
export const labelsQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.scope('labels'), 'list'] as const,
    queryFn: ({ signal }) => callAdmin('/v1/admin/labels/list', {}, { signal }),
  });

/**
 * The owner's labels (issue 35), a section of the admin console of their own: add one (a name, a colour of the palette), rename or recolour
 * it in its row, delete it. A name is shown as text only (LabelChips).
 */
export function LabelsSection() {
  const { t } = useTranslation('admin');
  const query = useQuery(labelsQuery());
  const [name, setName] = useState('');
  const [color, setColor] = useState<LabelColor>('green');
  const create = useAdminAction(
    () => callAdmin('/v1/admin/labels/create', { name, color }, { notify: false }),
    ['labels', 'audit'],
  );
  const colors = LABEL_COLORS.map((c) => ({ value: c, label: t(`labels.colors.${c}`) }));
  const labels = query.data?.labels ?? [];
  return (
    <Stack gap="sm" data-testid="labels-section">
      <PageHeader title={t('labels.title')} />
      <Text size="sm" c="dimmed">
        {t('labels.help')}
      </Text>
      <Group align="flex-end" gap="xs" wrap="wrap">
        <TextInput
          label={t('labels.name')}
          value={name}
          maxLength={LABEL_NAME_MAX}
          onChange={(e) => setName(e.currentTarget.value)}
          w={200}
          data-testid="label-name"
        />
        <Select
          label={t('labels.color')}
          data={colors}
          value={color}
          onChange={(v) => setColor((v ?? 'green') as LabelColor)}
          allowDeselect={false}
          w={140}
          data-testid="label-color"
        />
        <Button
          loading={create.busy}
          disabled={name.trim() === ''}
          onClick={async () => {
            if (await create.submit()) setName('');
          }}
          data-testid="label-create"
        >
          {t('labels.create')}
        </Button>
      </Group>
      <ActionAlert error={create.error} />
      {/* A list, not a table: a row's inputs and buttons wrap onto a second line on a phone. */}
      <Stack gap={0} role="list" aria-label={t('labels.title')} data-testid="labels-table">
        {labels.map((l) => (
          <LabelRow key={`${l.label_id}:${l.name}:${l.color}`} label={l} colors={colors} />
        ))}
      </Stack>
      {query.data && labels.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('labels.empty')}
        </Text>
      )}
    </Stack>
  );
}

function LabelRow({
  label,
  colors,
}: {
  label: AdminLabel;
  colors: { value: string; label: string }[];
}) {
  const { t } = useTranslation('admin');
  const [name, setName] = useState(label.name);
  const [color, setColor] = useState<LabelColor>(label.color);
  const update = useAdminAction(
    () =>
      callAdmin(
        '/v1/admin/labels/update',
        { label_id: label.label_id, name, color },
        { notify: false },
      ),
    ['labels', 'audit'],
  );
  const remove = useAdminAction(
    () => callAdmin('/v1/admin/labels/delete', { label_id: label.label_id }, { notify: false }),
    ['labels', 'audit'],
  );
  const changed = name.trim() !== label.name || color !== label.color;
  return (
    <Group
      role="listitem"
      data-testid="label-row"
      data-label-id={label.label_id}
      gap="xs"
      align="flex-end"
      wrap="wrap"
      py={8}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={4} style={{ flex: '1 1 12rem', minWidth: 0 }}>
        <LabelChips labels={[label]} testId="label-row-chip" />
        <TextInput
          size="xs"
          aria-label={t('labels.name')}
          value={name}
          maxLength={LABEL_NAME_MAX}
          onChange={(e) => setName(e.currentTarget.value)}
          error={update.error ? update.error.message : undefined}
          data-testid="label-row-name"
        />
      </Stack>
      <Select
        size="xs"
        aria-label={t('labels.color')}
        data={colors}
        value={color}
        onChange={(v) => setColor((v ?? label.color) as LabelColor)}
        allowDeselect={false}
        w={130}
      />
      <Text size="sm" c="dimmed" data-testid="label-row-chats">
        {t('labels.chats')}: {label.chats}
      </Text>
      <Stack gap={4}>
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="light"
            disabled={!changed}
            loading={update.busy}
            onClick={() => void update.submit()}
            data-testid="label-row-save"
          >
            {t('labels.save')}
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            loading={remove.busy}
            onClick={() => void remove.submit()}
            data-testid="label-row-delete"
          >
            {t('labels.remove')}
          </Button>
        </Group>
        <ActionAlert error={remove.error} />
      </Stack>
    </Group>
  );
}
