import { useState } from 'react';
import { Button, Group, Skeleton, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REMARK_MAX, type SessionItem } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { useSessionActions } from '../../sessions/hooks/use-session-actions';
import { remarkError } from '../../sessions/api/session-validation';
import { remarkQuery } from '../api/profile-queries';

/** The remark, read with get_remark and edited in place (Enter or Save). */
export function RemarkField({ user }: { user: SessionItem }) {
  const { data, isPending } = useQuery(remarkQuery(user.session_id));
  if (isPending) return <Skeleton h={36} />;
  // Re-initialised whenever the stored remark changes (saved here or elsewhere).
  return (
    <RemarkEditor
      key={data?.remark ?? user.remark}
      user={user}
      initial={data?.remark ?? user.remark}
    />
  );
}

function RemarkEditor({ user, initial }: { user: SessionItem; initial: string }) {
  const { t } = useTranslation('profile');
  const actions = useSessionActions();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dirty = value.trim() !== initial;

  const save = async () => {
    if (remarkError(value)) {
      return setError(t('session-actions:remarkTooLong', { max: REMARK_MAX }));
    }
    setBusy(true);
    try {
      await actions.setRemark(user, value.trim());
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('session-actions:failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (dirty) void save();
      }}
    >
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          flex={1}
          size="sm"
          placeholder={t('remarkPlaceholder')}
          aria-label={t('remark')}
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          data-testid="profile-remark-input"
        />
        <Button
          type="submit"
          size="sm"
          variant="light"
          disabled={!dirty}
          loading={busy}
          data-testid="profile-remark-save"
        >
          {t('common:actions.save')}
        </Button>
      </Group>
    </form>
  );
}
