import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TestProviders } from '../../../test/render';
import NotFoundPage from '../pages/NotFoundPage';
import { ErrorView } from './ErrorView';

function renderAt(path: string, element = <NotFoundPage />) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>home</p> },
      { path: '/en', element: <p>home en</p> },
      { path: '/previous', element: <p>previous page</p> },
      { path: '/patients', element: <p>patients list</p> },
      { path: '/en/exams', element: <p>exams list</p> },
      { path: '/error-404', element },
      { path: '/en/error-404', element },
    ],
    { initialEntries: ['/previous', path], initialIndex: 1 },
  );
  render(
    <TestProviders>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return router;
}

afterEach(() => vi.unstubAllGlobals());

describe('error page', () => {
  it('shows the type-specific title, description and resource id, and goes back to the list', async () => {
    const router = renderAt('/error-404?type=patient&id=P-42');
    expect(screen.getByRole('heading', { name: 'Patient introuvable' })).toBeInTheDocument();
    expect(
      screen.getByText("L'élément « patient » que vous recherchez n'existe pas ou a été déplacé."),
    ).toBeInTheDocument();
    expect(screen.getByTestId('resource-id')).toHaveTextContent('P-42');
    fireEvent.click(screen.getByRole('button', { name: 'Retour à la liste' }));
    await screen.findByText('patients list');
    expect(router.state.location.pathname).toBe('/patients');
  });

  it('speaks English under /en', async () => {
    const router = renderAt('/en/error-404?type=exam&id=9');
    expect(screen.getByRole('heading', { name: 'Exam not found' })).toBeInTheDocument();
    expect(
      screen.getByText('The exam you are looking for does not exist or has been moved.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('resource-id')).toHaveTextContent('ID: 9');
    fireEvent.click(screen.getByRole('button', { name: 'Back to the list' }));
    await screen.findByText('exams list');
    expect(router.state.location.pathname).toBe('/en/exams');
  });

  it.each([
    ['admission', 'Admission introuvable'],
    ['consultation', 'Consultation introuvable'],
    ['hospitalization', 'Hospitalisation introuvable'],
    ['triage', 'Triage introuvable'],
    ['medical-act', 'Acte médical introuvable'],
    ['transfer', 'Transfert introuvable'],
  ])('has a title for %s', (type, title) => {
    renderAt(`/error-404?type=${type}`);
    expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.queryByTestId('resource-id')).not.toBeInTheDocument();
  });

  it('shows the generic 404 texts for an unknown type and goes to the previous page', async () => {
    const router = renderAt('/error-404?type=unicorn');
    expect(screen.getByRole('heading', { name: 'Page introuvable' })).toBeInTheDocument();
    expect(
      screen.getByText("Désolé, la page que vous recherchez n'existe pas ou a été déplacée."),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retour' }));
    await screen.findByText('previous page');
    expect(router.state.location.pathname).toBe('/previous');
  });

  it('the Home button goes to / (with the language prefix)', async () => {
    const router = renderAt('/en/error-404');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Home' }));
    await screen.findByText('home en');
    expect(router.state.location.pathname).toBe('/en');
  });

  it('shows "An error occurred" with the message for other errors', () => {
    renderAt('/en/error-404', <ErrorView status={500} message="Database on fire" />);
    expect(screen.getByRole('heading', { name: 'An error occurred' })).toBeInTheDocument();
    expect(screen.getByText('Database on fire')).toBeInTheDocument();
  });

  it('is not rendered for search-engine bots', () => {
    vi.stubGlobal('navigator', { ...navigator, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
    renderAt('/error-404?type=patient&id=1');
    expect(screen.queryByTestId('error-page')).not.toBeInTheDocument();
  });
});
