import { useEffect, useRef, useState } from 'react';
import { Button, Group, Text, Textarea, UnstyledButton } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TEAM_NOTE_MAX, type TeamNote } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { formatMessageTime } from '../../../lib/format-time';
import { addNote, applyTeamNote, teamNotesQuery } from '../api/team-api';
import { useTeamView } from '../team-view.store';
import { useIsTeamChat } from '../hooks/use-team-queues';
import classes from './team-notes.module.css';

/**
 * A team chat's private notes, apart from its messages (never sent to the customer), and the
 * box that writes one. The N shortcut opens the box.
 */
export function TeamNotes({ sessionId, onTyping }: { sessionId: number; onTyping?: () => void }) {
  const { t } = useTranslation('team');
  const { data } = useQuery(teamNotesQuery(sessionId));
  const notes = data?.notes ?? [];
  const [writing, setWriting] = useState(false);
  const asked = useTeamView((s) => s.noteRequested);
  const first = useRef(asked);
  useEffect(() => {
    if (asked !== first.current) setWriting(true);
  }, [asked]);
  return (
    <section className={classes.panel} data-testid="team-notes" aria-label={t('notesTitle')}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="xs" fw={700} c="yellow.9">
          {t('notesTitle')} · {notes.length}
        </Text>
        {!writing && (
          <UnstyledButton onClick={() => setWriting(true)} data-testid="team-note-write">
            <Text size="xs" c="yellow.9" td="underline">
              {t('writeNote')}
            </Text>
          </UnstyledButton>
        )}
      </Group>
      {notes.length > 0 && (
        <div className={classes.notes}>
          {notes.map((n) => (
            <NoteCard key={n.note_id} note={n} />
          ))}
        </div>
      )}
      {writing && (
        <NoteWriter sessionId={sessionId} onDone={() => setWriting(false)} onTyping={onTyping} />
      )}
    </section>
  );
}

/** One note, as text (whatever its content, never markup). */
export function NoteCard({ note }: { note: TeamNote }) {
  const { t, i18n } = useTranslation('team');
  return (
    <div className={classes.note} data-testid="team-note" data-kind={note.kind}>
      <Text size="xs" c="yellow.9" fw={600}>
        {note.kind === 'handover' ? t('handOverNoteLabel') : t('noteLabel')}
      </Text>
      <Text size="sm" className={classes.content} data-testid="team-note-content">
        {note.content}
      </Text>
      <Text size="xs" c="dimmed">
        {note.author} · {formatMessageTime(note.created_at, i18n.language)}
      </Text>
    </div>
  );
}

function NoteWriter({
  sessionId,
  onDone,
  onTyping,
}: {
  sessionId: number;
  onDone: () => void;
  /** Each keystroke (the others see "typing"). */
  onTyping?: (() => void) | undefined;
}) {
  const { t } = useTranslation('team');
  const qc = useQueryClient();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const content = value.trim();
    if (!content) return setError(t('noteEmpty'));
    if (content.length > TEAM_NOTE_MAX) return setError(t('noteTooLong', { max: TEAM_NOTE_MAX }));
    setBusy(true);
    try {
      applyTeamNote(qc, await addNote(sessionId, content));
      setValue('');
      onDone();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Textarea
        autosize
        minRows={2}
        maxRows={5}
        autoFocus
        placeholder={t('notePlaceholder')}
        value={value}
        error={error}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setError(null);
          onTyping?.();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onDone();
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void save();
        }}
        data-testid="team-note-input"
      />
      <Group justify="flex-end" gap="xs" mt={6}>
        <Button size="compact-sm" variant="subtle" color="gray" onClick={onDone}>
          {t('cancel')}
        </Button>
        <Button
          size="compact-sm"
          color="yellow"
          type="submit"
          loading={busy}
          data-testid="team-note-save"
        >
          {t('addNote')}
        </Button>
      </Group>
    </form>
  );
}

/** The open chat's notes, when it is a team chat. */
export function TeamChatNotes({ user }: { user: { session_id: number; send_phone: string } }) {
  return useIsTeamChat(user) ? <TeamNotes sessionId={user.session_id} /> : null;
}
