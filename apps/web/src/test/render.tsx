import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { VirtuosoMockContext } from 'react-virtuoso';
import { adminStringsReady } from '../features/admin/admin-locale';
import { i18n, initI18n } from '../lib/i18n';

let ready: Promise<unknown> | undefined;

/** The real strings (English, as jsdom's navigator says), the console's and the admin area's. */
export function loadStrings(): Promise<unknown> {
  ready ??= initI18n().then(() => adminStringsReady());
  return ready;
}

/**
 * Renders a component inside the providers the app gives it (Mantine, i18next, a fresh TanStack
 * Query client per test, so nothing cached leaks between tests). Await loadStrings() first.
 */
export function renderWithProviders(ui: ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nextProvider i18n={i18n}>
      {/* env="test": no transitions and no portals, so a dropdown or a dialog is there at once. */}
      <MantineProvider env="test">
        <QueryClientProvider client={queryClient}>
          {/* jsdom lays nothing out: the virtual lists are told a viewport and a row height. */}
          <VirtuosoMockContext.Provider value={{ viewportHeight: 2000, itemHeight: 40 }}>
            {children}
          </VirtuosoMockContext.Provider>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
  return Object.assign(render(ui, { wrapper }), { queryClient });
}
