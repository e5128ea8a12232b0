import type { ReactNode } from 'react';
import { createTheme, MantineProvider } from '@mantine/core';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n';
import { themeManager } from '../lib/theme-manager';
import { SIZE_SCALE, useSettings } from '../stores/settings.store';
import { LazyNotifications } from './lazy-notifications';

const manager = themeManager();

export function AppProviders({ children }: { children: ReactNode }) {
  const size = useSettings((s) => s.size);
  const theme = createTheme({
    primaryColor: 'blue',
    defaultRadius: 'md',
    scale: SIZE_SCALE[size],
    fontFamily:
      'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", sans-serif',
  });
  return (
    <I18nextProvider i18n={i18n}>
      {/* 'auto' follows the system's light or dark setting until the user picks one (stored). */}
      <MantineProvider theme={theme} colorSchemeManager={manager} defaultColorScheme="auto">
        <LazyNotifications />
        {children}
      </MantineProvider>
    </I18nextProvider>
  );
}
