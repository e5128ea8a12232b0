import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { GlossaryEntry, GlossaryKind, TranslationLanguageCode } from '@parley/protocol';
import { callAdmin } from '../api/admin-client';
import { rowsOf } from '../api/admin-queries';
import { glossaryQuery } from '../api/translation-queries';
import { useAdminAction } from '../hooks/use-admin-action';
import { ActionAlert } from './action-alert';
import { AdminTable, type AdminColumn } from './admin-table';
import { LanguagePairSelects } from './language-pair-selects';
import { PageHeader } from './page-header';
import { useBaseLanguages } from './use-base-languages';

const KINDS: GlossaryKind[] = ['keep', 'pattern', 'fixed'];

/** The workspace's glossary: names never translated, patterns, fixed translations per pair. */
export function GlossarySection() {
  const { t } = useTranslation('admin');
  const languages = useBaseLanguages();
  const query = useInfiniteQuery(glossaryQuery());
  const rows = rowsOf(query.data);
  const first = query.data?.pages[0];
  const [kind, setKind] = useState<GlossaryKind>('keep');
  const [term, setTerm] = useState('');
  const [translation, setTranslation] = useState('');
  const [source, setSource] = useState<string | null>('EN');
  const [target, setTarget] = useState<string | null>('ES');
  const add = useAdminAction(
    () =>
      callAdmin(
        '/v1/admin/glossary/add',
        kind === 'fixed'
          ? {
              kind,
              term,
              translation,
              source_lang: source as TranslationLanguageCode,
              target_lang: target as TranslationLanguageCode,
            }
          : { kind, term },
        { notify: false },
      ),
    ['translation', 'audit'],
  );
  const remove = useAdminAction(
    (id: number) => callAdmin('/v1/admin/glossary/delete', { entry_id: id }),
    ['translation', 'audit'],
  );
  const submit = async () => {
    if (await add.submit()) {
      setTerm('');
      setTranslation('');
    }
  };
  const fieldError = (field: string) =>
    add.error?.fields.includes(field) ? add.error.message : undefined;

  const columns: AdminColumn<GlossaryEntry>[] = [
    {
      key: 'kind',
      header: t('glossary.columns.kind'),
      width: '18%',
      render: (e) => <Text size="sm">{t(`glossary.kinds.${e.kind}`)}</Text>,
    },
    {
      key: 'term',
      header: t('glossary.columns.term'),
      render: (e) => <Text size="sm">{e.term}</Text>,
    },
    {
      key: 'translation',
      header: t('glossary.columns.translation'),
      render: (e) =>
        e.kind === 'fixed' ? (
          <Text size="sm">
            {e.translation}{' '}
            <Text span c="dimmed" size="xs">
              ({e.source_lang} → {e.target_lang})
            </Text>
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      key: 'actions',
      header: '',
      width: '14%',
      render: (e) => (
        <Button
          size="compact-xs"
          variant="subtle"
          color="red"
          aria-label={t('glossary.removeTerm', { term: e.term })}
          onClick={() => void remove.submit(e.entry_id)}
        >
          {t('glossary.remove')}
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="sm" data-testid="glossary-section">
      <PageHeader
        title={t('glossary.title')}
        count={
          first ? t('glossary.count', { count: first.entries, max: first.max_entries }) : undefined
        }
        countTestId="glossary-count"
      />
      <Text size="sm" c="dimmed">
        {t('glossary.help')}
      </Text>
      <Group align="flex-end" gap="xs" wrap="wrap">
        <Select
          label={t('glossary.columns.kind')}
          data={KINDS.map((k) => ({ value: k, label: t(`glossary.kinds.${k}`) }))}
          value={kind}
          onChange={(v) => v && setKind(v as GlossaryKind)}
          allowDeselect={false}
          w={190}
          data-testid="glossary-kind"
        />
        <TextInput
          label={kind === 'pattern' ? t('glossary.pattern') : t('glossary.columns.term')}
          description={kind === 'pattern' ? t('glossary.patternHelp') : undefined}
          value={term}
          onChange={(e) => setTerm(e.currentTarget.value)}
          error={fieldError('term')}
          data-testid="glossary-term"
        />
        {kind === 'fixed' && (
          <>
            <TextInput
              label={t('glossary.columns.translation')}
              value={translation}
              onChange={(e) => setTranslation(e.currentTarget.value)}
              error={fieldError('translation')}
              data-testid="glossary-translation"
            />
            <LanguagePairSelects
              sources={languages}
              targets={languages}
              source={source}
              target={target}
              onSource={setSource}
              onTarget={setTarget}
              width={150}
              testId="glossary"
              targetError={fieldError('target_lang')}
            />
          </>
        )}
        <Button
          onClick={() => void submit()}
          loading={add.busy}
          disabled={!term.trim()}
          data-testid="glossary-add"
        >
          {t('glossary.add')}
        </Button>
      </Group>
      <ActionAlert error={add.error ?? remove.error} />
      {/* The table fills a column of fixed height (AdminTable scrolls within it). */}
      <Stack h={360} gap={0}>
        <AdminTable
          label={t('glossary.title')}
          testId="glossary-table"
          rows={rows}
          total={first?.total ?? 0}
          columns={columns}
          rowKey={(e) => e.entry_id}
          rowTestId={() => 'glossary-row'}
          hasNextPage={query.hasNextPage}
          isFetchingNextPage={query.isFetchingNextPage}
          fetchNextPage={query.fetchNextPage}
          loading={query.isPending}
          empty={t('glossary.empty')}
          minWidth={640}
        />
      </Stack>
    </Stack>
  );
}
