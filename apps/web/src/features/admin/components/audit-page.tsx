import '../mantine-admin-styles';
import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Badge, Button, Code, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { auditAction, auditTargetType, type AuditAction, type AuditEntry } from '@parley/protocol';
import { auditQuery, rowsOf } from '../api/admin-queries';
import { changedFields, formatDateTime, showValue } from '../admin-format';
import { AdminTable, type AdminColumn } from './admin-table';
import { PageHeader } from './page-header';
import { ExportButton } from './export-button';

type TargetType = AuditEntry['target_type'];

/** A local date (yyyy-mm-dd from a date input) as epoch ms of its midnight; the end is the next one. */
const dayStart = (value: string, plusDays = 0): number | undefined => {
  if (!value) return undefined;
  const [y, m, d] = value.split('-').map(Number);
  if (!y || !m || !d) return undefined;
  return new Date(y, m - 1, d + plusDays).getTime();
};

function Changes({ entry }: { entry: AuditEntry }) {
  const changes = changedFields(entry.before, entry.after);
  if (changes.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Stack gap={0} data-testid="audit-changes">
      {changes.map((c) => (
        <Text
          size="xs"
          key={c.field}
          truncate
          title={`${c.field}: ${showValue(c.before)} → ${showValue(c.after)}`}
        >
          <Code>{c.field}</Code> {showValue(c.before)} → {showValue(c.after)}
        </Text>
      ))}
    </Stack>
  );
}

/** The audit log: every administrator action (who, what, when, before and after), filtered. */
export function AuditPage() {
  const { t, i18n } = useTranslation('admin');
  const [actor, setActor] = useState('');
  const [action, setAction] = useState<AuditAction | null>(null);
  const [targetType, setTargetType] = useState<TargetType | null>(null);
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [debouncedActor] = useDebouncedValue(actor.trim(), 300);
  const filters = {
    actor: debouncedActor || undefined,
    action: action ?? undefined,
    target_type: targetType ?? undefined,
    since: dayStart(since),
    until: dayStart(until, 1),
  };
  const query = useInfiniteQuery(auditQuery(filters));
  const rows = rowsOf(query.data);
  const total = query.data?.pages[0]?.total ?? 0;
  const clear = () => {
    setActor('');
    setAction(null);
    setTargetType(null);
    setSince('');
    setUntil('');
  };

  const columns: AdminColumn<AuditEntry>[] = [
    {
      key: 'at',
      header: t('audit.columns.at'),
      width: '15%',
      render: (e) => <Text size="sm">{formatDateTime(e.at, i18n.language)}</Text>,
    },
    {
      key: 'actor',
      header: t('audit.columns.actor'),
      width: '12%',
      render: (e) => (
        <Group gap={4} wrap="nowrap">
          {e.actor_type === 'cli' ? (
            <Badge size="sm" variant="outline" data-testid="audit-actor">
              {t('audit.cli')}
            </Badge>
          ) : (
            <Text size="sm" data-testid="audit-actor">
              {e.actor}
            </Text>
          )}
        </Group>
      ),
    },
    {
      key: 'action',
      header: t('audit.columns.action'),
      width: '17%',
      render: (e) => (
        <Text size="sm" data-testid="audit-action" data-action={e.action}>
          {t(`audit.actions.${e.action}`)}
        </Text>
      ),
    },
    {
      key: 'target',
      header: t('audit.columns.target'),
      width: '18%',
      render: (e) => (
        <Text size="sm" data-testid="audit-target">
          {t(`audit.targets.${e.target_type}`)}: {e.target}
        </Text>
      ),
    },
    {
      key: 'changes',
      header: t('audit.columns.changes'),
      width: '38%',
      render: (e) => <Changes entry={e} />,
    },
  ];

  return (
    <>
      <PageHeader
        title={t('routes.audit')}
        count={query.data ? t('audit.count', { count: total }) : undefined}
      />
      <Group mb="sm" gap="sm" align="flex-end" role="search">
        <TextInput
          label={t('audit.filters.actor')}
          value={actor}
          onChange={(e) => setActor(e.currentTarget.value)}
          data-testid="audit-filter-actor"
          w={160}
        />
        <Select
          label={t('audit.filters.action')}
          placeholder={t('audit.filters.any')}
          clearable
          value={action}
          onChange={(v) => setAction(v as AuditAction | null)}
          data={auditAction.options.map((a) => ({ value: a, label: t(`audit.actions.${a}`) }))}
          data-testid="audit-filter-action"
          w={220}
        />
        <Select
          label={t('audit.filters.target')}
          placeholder={t('audit.filters.any')}
          clearable
          value={targetType}
          onChange={(v) => setTargetType(v as TargetType | null)}
          data={auditTargetType.options.map((a) => ({ value: a, label: t(`audit.targets.${a}`) }))}
          data-testid="audit-filter-target"
          w={160}
        />
        <TextInput
          type="date"
          label={t('audit.filters.since')}
          value={since}
          onChange={(e) => setSince(e.currentTarget.value)}
          data-testid="audit-filter-since"
          w={160}
        />
        <TextInput
          type="date"
          label={t('audit.filters.until')}
          value={until}
          onChange={(e) => setUntil(e.currentTarget.value)}
          data-testid="audit-filter-until"
          w={160}
        />
        <Button variant="subtle" onClick={clear} data-testid="audit-filter-clear">
          {t('audit.filters.clear')}
        </Button>
        <ExportButton kind="audit" filters={filters} />
      </Group>
      <AdminTable
        label={t('routes.audit')}
        testId="audit-table"
        rows={rows}
        total={total}
        columns={columns}
        rowKey={(e) => e.audit_id}
        rowTestId={(e) => `audit-row-${e.audit_id}`}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        loading={query.isPending}
        empty={
          <Text c="dimmed" data-testid="audit-empty">
            {t('audit.empty')}
          </Text>
        }
      />
    </>
  );
}
