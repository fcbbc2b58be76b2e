import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { locationOf, makeUser, renderApp } from '../../../test/render';
import { CONSULTATION_ID as ID, consultationRecord as record } from './consultation.fixture';

afterEach(() => {
  vi.unstubAllGlobals();
});

const doctor = makeUser({ active_roles: [{ role_code: 'DOCTOR', hospital: 'h1', department: 'd1' }] });

const emptyPage = () => Response.json({ count: 0, next: null, previous: null, results: [] });

describe('the consultation-access route guard', () => {
  it('shows the refusal notice and goes to / on a 403', async () => {
    const { router } = renderApp(`/consultations/${ID}`, {
      user: doctor,
      routes: {
        [`/api/consultations/${ID}/`]: () =>
          Response.json({ detail: 'Vous n’avez pas accès à cette consultation.' }, { status: 403 }),
      },
    });
    await waitFor(() => expect(locationOf(router)).toBe('/'));
    expect(await screen.findByText("Vous n'avez pas accès à cette fonctionnalité")).toBeVisible();
    expect(screen.getByText('Accès refusé')).toBeVisible();
  });

  it('refuses the diagnoses page the same way', async () => {
    const { router, fetchMock } = renderApp(`/en/consultations/diagnosis/${ID}`, {
      user: doctor,
      routes: { [`/api/consultations/${ID}/`]: () => Response.json({ detail: 'no' }, { status: 403 }) },
    });
    await waitFor(() => expect(locationOf(router)).toBe('/en'));
    expect(
      fetchMock.mock.calls.some(([url]) => String(url).includes(`/api/consultations/${ID}/diagnoses/`)),
    ).toBe(false);
  });

  it('shows the error page of type consultation on a 404', async () => {
    const { router } = renderApp(`/consultations/${ID}`, { user: doctor });
    await waitFor(() => expect(locationOf(router)).toBe(`/error-404?type=consultation&id=${ID}`));
    expect(await screen.findByText('Consultation introuvable')).toBeVisible();
  });

  it('shows the error page for an id that cannot exist, without asking the server', async () => {
    const { router, fetchMock } = renderApp('/consultations/not-an-id', { user: doctor });
    await waitFor(() => expect(locationOf(router)).toBe('/error-404?type=consultation&id=not-an-id'));
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/consultations/'))).toBe(false);
  });

  it('opens the page with the record; a reader gets the read-only record', async () => {
    renderApp(`/consultations/${ID}`, {
      user: doctor,
      routes: {
        [`/api/consultations/${ID}/`]: () => Response.json(record()),
        [`/api/patients/${record().patient.id}/diagnoses/`]: emptyPage,
      },
    });
    expect(await screen.findByRole('heading', { name: 'Consultation de Bénédicte Ngalula' })).toBeVisible();
    expect(screen.getByTestId('consultation-record')).toBeVisible();
    expect(screen.getByText('Fièvre depuis 3 jours')).toBeVisible();
    expect(screen.getByText('Lecture seule')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Terminer la consultation' })).toBeNull();
    // The banner is in the page twice (above the form on narrow screens, beside it on wide ones; CSS shows one).
    for (const alert of screen.getAllByTestId('allergy-alert')) expect(alert).toHaveTextContent('Aspirine');
  });

  it('gives the editor to someone who may edit', async () => {
    renderApp(`/consultations/${ID}`, {
      user: doctor,
      routes: {
        [`/api/consultations/${ID}/`]: () => Response.json(record({ access: 'edit' })),
        [`/api/patients/${record().patient.id}/diagnoses/`]: emptyPage,
      },
    });
    expect(await screen.findByRole('button', { name: 'Terminer la consultation' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Histoire de la maladie' })).toHaveValue(
      'Fièvre depuis 3 jours',
    );
    expect(screen.getByTestId('autosave-status')).toHaveTextContent('Dernière modification');
  });
});
