/** Theme, colour scheme, notifications, modals, i18n and TanStack Query. */
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { colorSchemeManager } from '../lib/color-scheme';
import { i18n } from '../lib/i18n';
import { theme } from '../lib/theme';

export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
          <ModalsProvider>
            <Notifications position="top-right" zIndex={2000} limit={5} />
            {children}
          </ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
