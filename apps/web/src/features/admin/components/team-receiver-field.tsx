import { Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AdminTeamMember } from '@parley/protocol';

/** The value that sends the leaving members' chats back to the queue. */
export const TO_QUEUE = 'queue';

interface Props {
  /** Members being removed who hold chats of the account (none: nothing is shown). */
  leaving: AdminTeamMember[];
  /** The members who may receive them: staying, not frozen. */
  candidates: { value: string; label: string }[];
  /** A candidate's seat id, or TO_QUEUE. */
  value: string;
  onChange: (value: string) => void;
}

/**
 * Asked when the owner removes members who hold chats: who receives them (a staying member, told
 * at once as by a hand-over) or back to the queue.
 */
export function TeamReceiverField({ leaving, candidates, value, onChange }: Props) {
  const { t } = useTranslation('admin');
  if (leaving.length === 0) return null;
  return (
    <Stack gap={4} data-testid="team-receiver-field">
      <Text size="sm" c="dimmed">
        {t('teams.receiverHint')}
      </Text>
      <Select
        label={t('teams.receiver')}
        data={[{ value: TO_QUEUE, label: t('teams.toQueue') }, ...candidates]}
        value={value}
        onChange={(v) => onChange(v ?? TO_QUEUE)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="team-receiver"
      />
    </Stack>
  );
}
