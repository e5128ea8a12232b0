import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Group, MultiSelect, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TranslationLanguageCode } from '@parley/protocol';
import { callAdmin } from '../api/admin-client';
import { engineRoutesQuery } from '../api/translation-queries';
import { useAdminAction } from '../hooks/use-admin-action';
import { ActionAlert } from './action-alert';
import { LanguagePairSelects } from './language-pair-selects';
import { PageHeader } from './page-header';
import { useBaseLanguages } from './use-base-languages';

/** Which engines serve a language pair, in fallback order (the rest: the configured order). */
export function EngineRoutesSection() {
  const { t } = useTranslation('admin');
  const languages = useBaseLanguages();
  const query = useQuery(engineRoutesQuery());
  const configured = query.data?.engines ?? [];
  const [source, setSource] = useState<string | null>('auto');
  const [target, setTarget] = useState<string | null>('EN');
  const [engines, setEngines] = useState<string[]>([]);
  const set = useAdminAction(
    () =>
      callAdmin(
        '/v1/admin/engine_routes/set',
        {
          source_lang: source as TranslationLanguageCode | 'auto',
          target_lang: target as TranslationLanguageCode,
          engines,
        },
        { notify: false },
      ),
    ['translation', 'audit'],
  );
  const remove = useAdminAction(
    (id: number) => callAdmin('/v1/admin/engine_routes/delete', { route_id: id }),
    ['translation', 'audit'],
  );
  const sources = [{ value: 'auto', label: t('engines.detected') }, ...languages];

  return (
    <Stack gap="sm" data-testid="engine-routes-section">
      <PageHeader title={t('engines.title')} />
      <Text size="sm" c="dimmed">
        {t('engines.help', { engines: configured.join(' → ') || '—' })}
      </Text>
      <Group align="flex-end" gap="xs" wrap="wrap">
        <LanguagePairSelects
          sources={sources}
          targets={languages}
          source={source}
          target={target}
          onSource={setSource}
          onTarget={setTarget}
          width={170}
          testId="route"
        />
        <MultiSelect
          label={t('engines.order')}
          data={configured}
          value={engines}
          onChange={setEngines}
          searchable
          w={300}
          data-testid="route-engines"
        />
        <Button
          onClick={() => void set.submit()}
          loading={set.busy}
          disabled={engines.length === 0}
          data-testid="route-set"
        >
          {t('engines.set')}
        </Button>
      </Group>
      <ActionAlert error={set.error ?? remove.error} />
      <Table aria-label={t('engines.title')} data-testid="route-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('engines.pair')}</Table.Th>
            <Table.Th>{t('engines.order')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(query.data?.list ?? []).map((r) => (
            <Table.Tr key={r.route_id} data-testid="route-row">
              <Table.Td>
                {r.source_lang === 'auto' ? t('engines.detected') : r.source_lang} → {r.target_lang}
              </Table.Td>
              <Table.Td>{r.engines.join(' → ')}</Table.Td>
              <Table.Td>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  onClick={() => void remove.submit(r.route_id)}
                >
                  {t('glossary.remove')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {query.data?.list.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('engines.empty')}
        </Text>
      )}
    </Stack>
  );
}
