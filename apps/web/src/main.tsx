import './lib/zod-csp';
import './app/styles/mantine-sign-in';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/Providers';
import { startChunksLoaded } from './app/page-prefetch';
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
        {/* Route changes render at once, not as transitions (issue 38): a transition's render yields every few
            milliseconds, and a store or query answer arriving in between made React throw the whole first render
            away and do it again (its check that every external store read the same value). */}
        <RouterProvider router={router} useTransitions={false} />
      </Providers>
    </StrictMode>,
  );
}

// The configuration and the signed-in user are fetched while the strings of the page's language load (one small
// chunk, preloaded by boot.js); should the strings fail, the app still renders. It renders once the page's chunks
// asked for by path are in too (at most START_CHUNKS_MAX_WAIT_MS), so that its first render is the whole page.
beginStartup(queryClient);
void Promise.all([loadLanguage(languageFromPath(window.location.pathname)), startChunksLoaded()]).finally(
  render,
);
