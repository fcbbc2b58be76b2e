/**
 * Theme, colour scheme, toasts, i18n and TanStack Query. (The modals provider is part of the signed-in shell:
 * AppLayout; no signed-out page opens a modal.)
 */
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { colorSchemeManager } from '../lib/color-scheme';
import { i18n } from '../lib/i18n';
import { cssVariablesResolver, localizedTheme } from '../lib/theme';

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

/** The kit's theme, its icon buttons named in the UI language (rebuilt when the language changes). */
function Mantine({ children }: { children: ReactNode }) {
  const { t, i18n: current } = useTranslation('common');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the names change with the language only.
  const theme = useMemo(() => localizedTheme(t), [current.language]);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      <Toasts />
      {children}
    </MantineProvider>
  );
}

export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Mantine>{children}</Mantine>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
