import { screen } from '@testing-library/react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { beforeAll, expect, test } from 'vitest';
import { loadStrings, renderWithProviders } from './render';

beforeAll(loadStrings);

function Greeting() {
  const { t } = useTranslation('admin');
  return <Button>{t('logout')}</Button>;
}

test('a component renders with the real English strings of the console and the admin area', () => {
  renderWithProviders(<Greeting />);
  expect(screen.getByRole('button').textContent).toBe('Log out');
});
