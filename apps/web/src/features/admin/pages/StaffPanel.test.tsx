import type { TStaffDetail, TStaffList } from '@greensen/shared/contracts/staff';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubDesktopWidth } from '../../../test/media-query';
import { locationOf, makeUser, renderApp } from '../../../test/render';

beforeEach(stubDesktopWidth);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });
const AWA = '0197a3b0-0000-7000-8000-000000000001';

const person: TStaffDetail = {
  id: AWA,
  email: 'awa.ndiaye@hopital.test',
  first_name: 'Awa',
  last_name: 'Ndiaye',
  full_name: 'Awa Ndiaye',
  status: 'active',
  last_login_at: null,
  roles: [{ role_code: 'NURSE', department: { id: 'd1', code: 'URG', name: 'Urgences' } }],
  language_preference: 'fr',
  has_pin: true,
  failed_unlock_attempts: 2,
  created_at: '2026-11-20T08:00:00Z',
  memberships: [
    {
      id: '0197a3b0-0000-7000-8000-0000000000a1',
      role_code: 'NURSE',
      department: { id: 'd1', code: 'URG', name: 'Urgences' },
      is_active: true,
      created_at: '2026-11-20T08:00:00Z',
    },
  ],
};
const page: TStaffList = { count: 1, next: null, previous: null, results: [person] };

/** The app with a fake server that also records the writes (method, path, body) and answers them. */
function renderWithWrites(path: string, answers: Record<string, (body: unknown) => Response>) {
  const writes: { method: string; path: string; body: unknown }[] = [];
  const view = renderApp(path, {
    user: admin,
    routes: {
      '/api/admin/staff/': () => Response.json(page),
      [`/api/admin/staff/${AWA}/`]: () => Response.json(person),
      '/api/departments/': () =>
        Response.json({
          count: 1,
          next: null,
          previous: null,
          results: [{ id: 'd1', code: 'URG', name: 'Urgences', kind: 'emergency', is_active: true }],
        }),
    },
  });
  const fallback = view.fetchMock.getMockImplementation()!;
  view.fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (init?.method && init.method !== 'GET' && url.pathname.startsWith('/api/admin/')) {
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      writes.push({ method: init.method, path: url.pathname, body });
      const answer = answers[`${init.method} ${url.pathname}`];
      if (answer) return answer(body);
    }
    return fallback(input);
  });
  return { ...view, writes };
}

describe('staff administration', () => {
  it('opens on the staff, lists people with their roles and state, and a row opens the person', async () => {
    const view = renderWithWrites('/admin', {});
    const panel = await screen.findByTestId('staff-panel');
    expect(await within(panel).findByText('Awa Ndiaye')).toBeInTheDocument();
    expect(panel).toHaveTextContent('Infirmier(ère) · Urgences');
    expect(panel).toHaveTextContent('Actif');
    expect(panel).toHaveTextContent('Jamais connecté(e)');
    await userEvent.setup().click(within(panel).getByText('Awa Ndiaye'));
    await vi.waitFor(() => expect(locationOf(view.router)).toBe(`/admin/staff/${AWA}`), { timeout: 10_000 });
    expect(await screen.findByTestId('staff-detail')).toHaveTextContent('awa.ndiaye@hopital.test');
  }, 60_000);

  it('invites a person with the server’s schema, and shows the server’s field errors as returned', async () => {
    let posts = 0;
    const view = renderWithWrites('/admin', {
      'POST /api/admin/staff/': (body) =>
        ++posts === 1
          ? Response.json(
              { email: ["Cette personne fait déjà partie du personnel de l'hôpital."] },
              { status: 400 },
            )
          : // Issue 36: the invitation as typed, the same whether the address has an account or not.
            Response.json(
              {
                ...(body as object),
                id: '0197a3b0-0000-7000-8000-0000000000b2',
                mailed: 'invitation',
                detail:
                  'Invitation envoyée à awa.ndiaye@hopital.test : le rôle prendra effet quand la personne l’acceptera.',
              },
              { status: 201 },
            ),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Inviter une personne' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: "Envoyer l'invitation" }));
    // Checked here first: nothing sent without an address, names and a role.
    expect(view.writes).toEqual([]);
    expect(dialog).toHaveTextContent('Saisissez une adresse e-mail valide.');
    expect(dialog).toHaveTextContent('Choisissez un rôle dans la liste.');
    await user.type(within(dialog).getByLabelText(/Adresse e-mail/), 'awa.ndiaye@hopital.test');
    await user.type(within(dialog).getByLabelText(/Prénom/), 'Awa');
    await user.type(within(dialog).getByLabelText(/^Nom/), 'Ndiaye');
    await user.click(within(dialog).getByRole('combobox', { name: /Rôle/ }));
    // The dialog's list is the last one opened (the filters have their own).
    const options = await screen.findAllByRole('option', { name: 'Infirmier(ère) (NURSE)', hidden: true });
    await user.click(options[options.length - 1]!);
    await user.click(within(dialog).getByRole('button', { name: "Envoyer l'invitation" }));
    await vi.waitFor(
      () =>
        expect(view.writes).toEqual([
          {
            method: 'POST',
            path: '/api/admin/staff/',
            body: {
              email: 'awa.ndiaye@hopital.test',
              first_name: 'Awa',
              last_name: 'Ndiaye',
              language_preference: 'fr',
              role_code: 'NURSE',
              department: null,
            },
          },
        ]),
      { timeout: 10_000 },
    );
    expect(
      await within(dialog).findByText("Cette personne fait déjà partie du personnel de l'hôpital."),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: "Envoyer l'invitation" }));
    expect(await screen.findByText('Invitation envoyée', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText(/le rôle prendra effet quand la personne l’acceptera/)).toBeInTheDocument();
  }, 60_000);

  it('deactivates a person only after a confirmation, and shows the server’s reason for a refusal', async () => {
    const view = renderWithWrites(`/admin/staff/${AWA}`, {
      [`POST /api/admin/staff/${AWA}/deactivate/`]: () =>
        Response.json(
          { detail: "C'est le dernier administrateur actif de l'hôpital : nommez-en un autre d'abord." },
          { status: 409 },
        ),
    });
    const user = userEvent.setup();
    const detail = await screen.findByTestId('staff-detail');
    expect(detail).toHaveTextContent('2 échecs de déverrouillage');
    expect(within(detail).getAllByTestId('membership-row')[0]).toHaveTextContent(
      'Premier rôle actif : il choisit le tableau de bord',
    );
    await user.click(within(detail).getByRole('button', { name: 'Désactiver…' }));
    // Issue 36: a membership of this hospital ends; the person's other hospitals do not change.
    expect(await screen.findByTestId('deactivate-confirm')).toHaveTextContent(
      'Ses autres hôpitaux ne changent pas',
    );
    expect(view.writes).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Oui, désactiver' }));
    await vi.waitFor(
      () =>
        expect(view.writes).toEqual([
          { method: 'POST', path: `/api/admin/staff/${AWA}/deactivate/`, body: undefined },
        ]),
      { timeout: 10_000 },
    );
    expect(await within(detail).findByRole('alert')).toHaveTextContent('dernier administrateur actif');
  }, 60_000);
});
