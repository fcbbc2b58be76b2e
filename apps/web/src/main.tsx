import './lib/zod-csp';
import './app/styles/mantine-sign-in';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/Providers';
import { createAppRouter } from './app/router';
import { beginStartup } from './app/StartupGate';
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

// The configuration and the signed-in user are fetched while the strings of the page's language load (one small
// chunk, preloaded by boot.js); should the strings fail, the app still renders.
beginStartup(queryClient);
void loadLanguage(languageFromPath(window.location.pathname)).finally(render);
