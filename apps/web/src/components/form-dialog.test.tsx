import { TextInput } from '@mantine/core';
import { ApiError } from '../lib/api-core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadStrings, renderWithProviders } from '../test/render';
import { FormDialog } from './form-dialog';
import { useDialogSubmit } from './use-dialog-submit';

beforeAll(() => loadStrings());

function renderDialog(busy = false) {
  const onSubmit = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(
    <FormDialog
      title="Rename the chat"
      onClose={onClose}
      onSubmit={onSubmit}
      busy={busy}
      submitLabel="Save"
      submitTestId="dialog-save"
      testId="dialog-form"
    >
      <TextInput label="Name" data-autofocus />
    </FormDialog>,
  );
  return { onSubmit, onClose };
}

describe('FormDialog', () => {
  it('shows its title, its fields and the button, and submits once per click', async () => {
    const { onSubmit, onClose } = renderDialog();
    expect(screen.getByRole('dialog', { name: 'Rename the chat' })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Name'), 'VIP');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('submits on Enter in a field, without reloading the page', async () => {
    const { onSubmit } = renderDialog();
    await userEvent.type(screen.getByLabelText('Name'), 'VIP{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('cannot be submitted again while busy', async () => {
    const { onSubmit } = renderDialog(true);
    const button = screen.getByTestId('dialog-save');
    expect(button.getAttribute('data-loading')).toBe('true');
    await userEvent.click(button);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('closes on Escape', async () => {
    const { onClose } = renderDialog();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});

/** A dialog whose submit runs `action` through useDialogSubmit, as the chat dialogs do. */
function Saving({ action }: { action: () => Promise<void> }) {
  const { busy, error, run } = useDialogSubmit('Could not save');
  return (
    <FormDialog
      title="Note"
      onClose={() => undefined}
      onSubmit={() => run(action)}
      busy={busy}
      submitLabel="Save"
      submitTestId="dialog-save"
    >
      <TextInput label="Note" error={error} />
    </FormDialog>
  );
}

describe('useDialogSubmit', () => {
  it("shows the server's refusal in its own words, anything else as the fallback", async () => {
    const refuse = vi.fn().mockRejectedValueOnce(new ApiError('400001', 'The note is too long'));
    renderWithProviders(<Saving action={refuse} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The note is too long')).toBeTruthy();
  });

  it('says the fallback when the call fails otherwise, and is not busy after', async () => {
    renderWithProviders(<Saving action={() => Promise.reject(new TypeError('offline'))} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Could not save')).toBeTruthy();
    expect(screen.getByTestId('dialog-save').getAttribute('data-loading')).toBeNull();
  });
});
