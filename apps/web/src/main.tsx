import './lib/zod-csp';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import 'mantine-datatable/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/Providers';
import { createAppRouter } from './app/router';
import { initErrorReporting } from './lib/error-reporting';
import { loadLanguage } from './lib/i18n';
import { applyLandingLanguage, languageFromPath } from './lib/language';
import { queryClient } from './lib/query-client';

initErrorReporting();
applyLandingLanguage();

function render() {
  const router = createAppRouter();
  const container = document.getElementById('root');
  if (!container) throw new Error('Missing #root element');
  createRoot(container).render(
    <StrictMode>
      <Providers queryClient={queryClient}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
}

// The strings of the page's language first (one small chunk); should it fail, the app still renders.
void loadLanguage(languageFromPath(window.location.pathname)).finally(render);
