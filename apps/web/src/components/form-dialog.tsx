import type { ReactNode } from 'react';
import { Group, Modal, Stack } from '@mantine/core';
import { ThrottledButton } from './throttled-button';

interface Props {
  title: ReactNode;
  onClose: () => void;
  /** The button or Enter in a field; the dialog itself never closes on it. */
  onSubmit: () => unknown;
  busy: boolean;
  submitLabel: ReactNode;
  submitTestId: string;
  testId?: string;
  /** The fields, stacked above the button. */
  children: ReactNode;
}

/**
 * A small dialog that is one form: its fields and a throttled submit button at the end (a
 * remark, a group's name, a hand-over). What the fields are and what a submit does stay the
 * caller's.
 */
export function FormDialog({
  title,
  onClose,
  onSubmit,
  busy,
  submitLabel,
  submitTestId,
  testId,
  children,
}: Props) {
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form
        data-testid={testId}
        onSubmit={(e) => {
          e.preventDefault();
          void onSubmit();
        }}
      >
        <Stack>
          {children}
          <Group justify="flex-end">
            <ThrottledButton type="submit" loading={busy} data-testid={submitTestId}>
              {submitLabel}
            </ThrottledButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
