import { useState } from 'react';
import { Select, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TEAM_NOTE_MAX, type SessionItem } from '@parley/protocol';
import { FormDialog } from '../../../components/form-dialog';
import { useDialogSubmit } from '../../../components/use-dialog-submit';
import { handOver, teamKeys, teamMembersQuery } from '../api/team-api';
import { openHandOver, useTeamView } from '../team-view.store';

/** "Hand over…": the chat's team members but the holder, and an optional private note. */
export function HandOverDialogHost() {
  const session = useTeamView((s) => s.handOver);
  if (!session) return null;
  return (
    <HandOverDialog key={session.session_id} session={session} onClose={() => openHandOver(null)} />
  );
}

function HandOverDialog({ session, onClose }: { session: SessionItem; onClose: () => void }) {
  const { t } = useTranslation('team');
  const qc = useQueryClient();
  const { data } = useQuery(teamMembersQuery(session.session_id));
  const [to, setTo] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const { busy, error, setError, run } = useDialogSubmit(t('failed'));
  const options = (data?.members ?? [])
    .filter((m) => m.seat_id !== data?.holder?.seat_id)
    .map((m) => ({
      value: String(m.seat_id),
      label: `${m.nickname}${m.frozen ? ` (${t('frozen')})` : m.online ? ` · ${t('online')}` : ''}`,
      disabled: m.frozen,
    }));

  const submit = async () => {
    if (!to) return setError(t('pickMember'));
    if (note.trim().length > TEAM_NOTE_MAX)
      return setError(t('noteTooLong', { max: TEAM_NOTE_MAX }));
    await run(async () => {
      const done = await handOver(session.session_id, Number(to), note);
      void qc.invalidateQueries({ queryKey: teamKeys.notes(session.session_id) });
      notifications.show({
        message: t('handedTo', { name: done.holder.nickname, phone: session.receiver_phone }),
      });
      onClose();
    });
  };

  return (
    <FormDialog
      title={t('handOverTitle')}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submitLabel={t('handOverSubmit')}
      submitTestId="hand-over-submit"
      testId="hand-over-dialog"
    >
      <Select
        label={t('handOverTo', { phone: session.receiver_phone })}
        placeholder={t('pickMember')}
        data={options}
        value={to}
        onChange={(v) => {
          setTo(v);
          setError(null);
        }}
        comboboxProps={{ withinPortal: true }}
        data-autofocus
        data-testid="hand-over-member"
      />
      <Textarea
        label={t('handOverNote')}
        description={t('handOverNoteHint')}
        autosize
        minRows={2}
        maxRows={6}
        value={note}
        onChange={(e) => {
          setNote(e.currentTarget.value);
          setError(null);
        }}
        error={error}
        data-testid="hand-over-note"
      />
    </FormDialog>
  );
}
