import '../../../components/mantine-console-styles';
import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GROUP_NAME_MAX, type Group } from '@parley/protocol';
import { FormDialog } from '../../../components/form-dialog';
import { ApiError } from '../../../lib/api-core';
import { saveGroup } from '../api/group-api';
import { groupKeys } from '../../sessions/api/session-cache';

interface Props {
  /** The group renamed, or null to create one. */
  group: Group | null;
  onClose: () => void;
}

/** Validation of a group name: required, at most 50 characters (spec section 5). */
export function groupNameError(name: string): 'required' | 'tooLong' | null {
  const trimmed = name.trim();
  if (!trimmed) return 'required';
  if (trimmed.length > GROUP_NAME_MAX) return 'tooLong';
  return null;
}

export function GroupFormModal({ group, onClose }: Props) {
  const { t } = useTranslation('groups');
  const qc = useQueryClient();
  const [name, setName] = useState(group?.group_name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const problem = groupNameError(name);
    if (problem) {
      setError(t(`validation.${problem}`, { max: GROUP_NAME_MAX }));
      return;
    }
    setBusy(true);
    try {
      const group_name = name.trim();
      await saveGroup(
        group
          ? { type: 'edit', group_id: group.group_id, group_name }
          : { type: 'add', group_name },
      );
      await qc.invalidateQueries({ queryKey: groupKeys.all });
      onClose();
    } catch (err) {
      notifications.show({
        color: 'red',
        title: t('messages:groupSaveFailed'),
        message: err instanceof ApiError ? err.message : '',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title={group ? t('renameTitle') : t('createTitle')}
      onClose={onClose}
      onSubmit={save}
      busy={busy}
      submitLabel={t('common:actions.save')}
      submitTestId="group-save"
    >
      <TextInput
        label={t('nameLabel')}
        placeholder={t('namePlaceholder')}
        value={name}
        onChange={(e) => {
          setName(e.currentTarget.value);
          setError(null);
        }}
        error={error}
        data-autofocus
        data-testid="group-name-input"
      />
    </FormDialog>
  );
}
