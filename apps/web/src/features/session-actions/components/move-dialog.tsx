import { useState } from 'react';
import { Group, Modal, Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { ThrottledButton } from '../../../components/throttled-button';
import { useGroupList } from '../../sessions/hooks/use-group-list';
import { useGroupName } from '../../sessions/hooks/use-group-name';
import { useSessionActions } from '../../sessions/hooks/use-session-actions';
import { moveError } from '../../sessions/api/session-validation';

interface Props {
  session: SessionItem;
  onClose: () => void;
}

/** Move a chat to another group; Blocked is reached by blocking, not by moving. */
export function MoveDialog({ session, onClose }: Props) {
  const { t } = useTranslation('session-actions');
  const groupName = useGroupName();
  const { data } = useGroupList();
  const actions = useSessionActions();
  const [target, setTarget] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const options = (data?.group_list ?? [])
    .filter((g) => g.group_type !== 'blocked')
    .map((g) => ({
      value: String(g.group_id),
      label:
        g.group_id === session.group_id ? t('currentGroup', { name: groupName(g) }) : groupName(g),
    }));

  const save = async () => {
    const problem = moveError(target, session.group_id);
    if (problem || target === null) return setError(t(`validation.${problem}`));
    setBusy(true);
    try {
      await actions.move(session, target);
      onClose();
    } catch {
      // The request layer showed the translated error.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('moveTitle')} centered>
      <form
        data-testid="move-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack>
          <Select
            label={t('moveLabel', { phone: session.receiver_phone })}
            placeholder={t('movePlaceholder')}
            data={options}
            value={target === null ? null : String(target)}
            onChange={(v) => {
              setTarget(v === null ? null : Number(v));
              setError(null);
            }}
            error={error}
            comboboxProps={{ withinPortal: true }}
            data-testid="move-group-select"
          />
          <Group justify="flex-end">
            <ThrottledButton type="submit" loading={busy} data-testid="move-save">
              {t('moveSubmit')}
            </ThrottledButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
