import { Badge, Button, Card, Group, SimpleGrid, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminTeam } from '@parley/protocol';
import { teamsQuery } from '../api/admin-queries';
import { formatDuration, formatNumber } from '../admin-format';
import { useNow } from '../hooks/use-now';

/** Per team account: its queue's length and oldest wait, and the open chats of each member. */
export function TeamsPanel({ onEdit }: { onEdit: (team: AdminTeam) => void }) {
  const { t } = useTranslation('admin');
  const { data } = useQuery(teamsQuery());
  const teams = data?.teams ?? [];
  if (teams.length === 0) return null;
  return (
    <section aria-label={t('teams.title')} data-testid="teams-panel" style={{ marginBottom: 16 }}>
      <Text fw={700} mb="xs">
        {t('teams.title')}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="sm">
        {teams.map((team) => (
          <TeamCard key={team.account_id} team={team} onEdit={onEdit} />
        ))}
      </SimpleGrid>
    </section>
  );
}

function TeamCard({ team, onEdit }: { team: AdminTeam; onEdit: (team: AdminTeam) => void }) {
  const { t, i18n } = useTranslation('admin');
  const now = useNow();
  return (
    <Card withBorder padding="sm" data-testid={`team-card-${team.send_phone}`}>
      <Group justify="space-between" wrap="nowrap" mb={6}>
        <div style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {team.send_phone}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {team.label || '—'}
          </Text>
        </div>
        {/* Never squeezed by a long number: "Manual" and "Editar" were cut on a phone. */}
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          <Badge variant="light" data-testid="team-card-routing">
            {t(`teams.routing.${team.routing}`)}
          </Badge>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => onEdit(team)}
            data-testid="team-card-edit"
          >
            {t('teams.edit')}
          </Button>
        </Group>
      </Group>
      <Group gap="lg" mb={6}>
        <div>
          <Text size="xs" c="dimmed">
            {t('teams.queueLength')}
          </Text>
          <Text fw={700} data-testid="team-card-queue">
            {formatNumber(team.queue_count, i18n.language)}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('teams.oldestWaiting')}
          </Text>
          <Text fw={700} data-testid="team-card-oldest">
            {team.oldest_since === null
              ? '—'
              : formatDuration(now - team.oldest_since, i18n.language)}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('teams.fields.capacity')}
          </Text>
          <Text fw={700}>{formatNumber(team.capacity, i18n.language)}</Text>
        </div>
      </Group>
      <Table fz="sm" verticalSpacing={2} data-testid="team-card-members">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('teams.member')}</Table.Th>
            <Table.Th ta="right">{t('teams.openChats')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {team.members.map((m) => (
            <Table.Tr key={m.seat_id} data-testid={`team-member-${m.account}`}>
              <Table.Td>
                {m.nickname}{' '}
                <Text span size="xs" c="dimmed">
                  {m.account}
                  {m.frozen ? ` · ${t('teams.frozen')}` : ''}
                </Text>
              </Table.Td>
              <Table.Td ta="right" data-testid="team-member-open">
                {formatNumber(m.open_chats, i18n.language)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
