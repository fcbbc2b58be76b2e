import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN, verification } from '../../../lib/documents/documents.fixture';
import { locationOf, makeUser, renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const path = `/api/verify/${TOKEN}/`;

describe('the public verification page', () => {
  it('shows a valid document without signing in, and only what proves it', async () => {
    const { router, fetchMock } = renderApp(`/verify/${TOKEN}`, {
      routes: { [path]: () => Response.json(verification()) },
    });
    const result = await screen.findByTestId('verify-result', {}, { timeout: 15_000 });
    expect(locationOf(router)).toBe(`/verify/${TOKEN}`);
    expect(result).toHaveAttribute('data-status', 'valid');
    expect(screen.getByTestId('verify-status')).toHaveTextContent('Document authentique et valide');
    expect(screen.getByTestId('verify-kind')).toHaveTextContent('Certificat médical');
    expect(screen.getByTestId('verify-number')).toHaveTextContent('CM-HGG-2026-000042');
    expect(screen.getByTestId('verify-date')).toHaveTextContent('25/11/2026');
    expect(screen.getByTestId('verify-hospital')).toHaveTextContent('Hôpital Général de Greensen');
    expect(screen.getByTestId('verify-doctor')).toHaveTextContent('Dr. Awa Diop');
    // Issue 37: the initials and year of birth match the paper to its bearer, nothing more.
    expect(screen.getByTestId('verify-patient')).toHaveTextContent('J. K., né(e) en 1971');
    // A public call: no bearer token, no hospital.
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('/api/verify/'));
    const headers = new Headers(call?.[1]?.headers);
    expect(headers.get('Authorization')).toBeNull();
    expect(headers.get('Hospital-ID')).toBeNull();
  });

  it('shows a cancelled document as cancelled, in English under /en', async () => {
    renderApp(`/en/verify/${TOKEN}`, {
      routes: {
        [path]: () =>
          Response.json(verification({ status: 'cancelled', cancelled_at: '2026-11-25T11:00:00Z' })),
      },
    });
    const result = await screen.findByTestId('verify-result', {}, { timeout: 15_000 });
    expect(result).toHaveAttribute('data-status', 'cancelled');
    expect(screen.getByTestId('verify-status')).toHaveTextContent('Cancelled document');
    expect(screen.getByTestId('verify-kind')).toHaveTextContent('Medical certificate');
  });

  it('an unknown token is not a document, and a signed-in user stays on the page', async () => {
    const { router } = renderApp(`/verify/${TOKEN}`, {
      user: makeUser(),
      routes: { [path]: () => Response.json({ detail: 'Not found' }, { status: 404 }) },
    });
    expect(await screen.findByTestId('verify-unknown', {}, { timeout: 15_000 })).toHaveTextContent(
      'Aucun document ne correspond à ce code.',
    );
    expect(locationOf(router)).toBe(`/verify/${TOKEN}`);
  });

  it('too many checks ask to wait', async () => {
    renderApp(`/verify/${TOKEN}`, {
      routes: { [path]: () => Response.json({ detail: 'Too many' }, { status: 429 }) },
    });
    expect(await screen.findByText(/Trop de vérifications/, {}, { timeout: 15_000 })).toBeInTheDocument();
  });
});
