/**
 * Theme, colour scheme, toasts, i18n and TanStack Query. (The modals provider is part of the signed-in shell:
 * AppLayout; no signed-out page opens a modal.)
 */
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { colorSchemeManager } from '../lib/color-scheme';
import { i18n } from '../lib/i18n';
import { cssVariablesResolver, theme } from '../lib/theme';

// The toast container is not needed to paint a page: it loads with the first toast (the notifications
// store keeps the toasts raised until it is there).
const ToastContainer = lazy(() => import('../lib/toast-container'));

function Toasts() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  ) : null;
}

export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider
          theme={theme}
          cssVariablesResolver={cssVariablesResolver}
          colorSchemeManager={colorSchemeManager}
          defaultColorScheme="auto"
        >
          <Toasts />
          {children}
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
