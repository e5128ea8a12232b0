import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ActionError } from '../hooks/use-admin-action';
import { ActionAlert } from './action-alert';

/** Cancel and the submit button (Save unless `label` says otherwise). */
export function DialogButtons({
  busy,
  onClose,
  testId,
  label,
}: {
  busy: boolean;
  onClose: () => void;
  testId: string;
  label?: string;
}) {
  const { t } = useTranslation('admin');
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onClose}>
        {t('actions.cancel')}
      </Button>
      <Button type="submit" loading={busy} data-testid={testId}>
        {label ?? t('actions.save')}
      </Button>
    </Group>
  );
}

/**
 * A dialog that edits one text field of a row (a seat's nickname, an account's label): checked
 * with the protocol's schema before it is sent, the server's refusal shown in the dialog.
 */
export function TextFieldDialog({
  opened,
  title,
  subject,
  label,
  initial,
  isValid,
  invalidMessage,
  action,
  testId,
  onClose,
}: {
  opened: boolean;
  title: string;
  /** What is edited (the seat's account, the account's number), shown above the field. */
  subject: string | undefined;
  label: string;
  initial: string;
  isValid: (value: string) => boolean;
  invalidMessage: string;
  action: {
    submit: (value: string) => Promise<unknown>;
    busy: boolean;
    error: ActionError | null;
    clearError: () => void;
  };
  /** Test ids: `<testId>-dialog`, `-input`, `-submit`. */
  testId: string;
  onClose: () => void;
}) {
  const [value, setValue] = useState<string | null>(null);
  const current = value ?? initial;
  const [invalid, setInvalid] = useState<string>();
  const close = () => {
    setValue(null);
    setInvalid(undefined);
    action.clearError();
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = isValid(current);
    setInvalid(ok ? undefined : invalidMessage);
    if (ok && (await action.submit(current.trim()))) close();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <form onSubmit={submit} noValidate data-testid={`${testId}-dialog`}>
        <Stack>
          <Text size="sm" c="dimmed">
            {subject}
          </Text>
          <TextInput
            label={label}
            value={current}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={invalid}
            data-testid={`${testId}-input`}
            data-autofocus
          />
          <ActionAlert error={action.error} />
          <DialogButtons busy={action.busy} onClose={close} testId={`${testId}-submit`} />
        </Stack>
      </form>
    </Modal>
  );
}
