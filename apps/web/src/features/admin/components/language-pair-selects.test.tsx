import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { LanguagePairSelects } from './language-pair-selects';

beforeAll(() => loadStrings());

const LANGUAGES = [
  { value: 'EN', label: 'English' },
  { value: 'ES', label: 'Spanish' },
  { value: 'PT', label: 'Portuguese' },
];

function renderPair(targetError: string | null = null) {
  const onSource = vi.fn();
  const onTarget = vi.fn();
  renderWithProviders(
    <LanguagePairSelects
      sources={[{ value: 'auto', label: 'Detected' }, ...LANGUAGES]}
      targets={LANGUAGES}
      source="auto"
      target="ES"
      onSource={onSource}
      onTarget={onTarget}
      width={150}
      testId="pair"
      targetError={targetError}
    />,
  );
  return { onSource, onTarget };
}

describe('LanguagePairSelects', () => {
  it('shows From and To with the pair, each with its own choices', async () => {
    renderPair();
    expect((screen.getByRole('combobox', { name: 'From' }) as HTMLInputElement).value).toBe(
      'Detected',
    );
    expect((screen.getByRole('combobox', { name: 'To' }) as HTMLInputElement).value).toBe(
      'Spanish',
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'To' }));
    expect(screen.queryByRole('option', { name: 'Detected' })).toBeNull();
  });

  it('hands over the language picked, and never an empty one', async () => {
    const { onSource, onTarget } = renderPair();
    await userEvent.click(screen.getByRole('combobox', { name: 'From' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Portuguese' }));
    expect(onSource).toHaveBeenLastCalledWith('PT', expect.anything());
    // Picking the chosen one again keeps it (a pair always has both languages).
    await userEvent.click(screen.getByRole('combobox', { name: 'To' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Spanish' }));
    expect(onTarget.mock.calls.every(([value]) => value !== null)).toBe(true);
  });

  it("shows the target's error under To", () => {
    renderPair('Pick another language');
    expect(screen.getByText('Pick another language')).toBeTruthy();
  });
});
