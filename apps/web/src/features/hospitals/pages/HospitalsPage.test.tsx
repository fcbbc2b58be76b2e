import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

const WARD = '0190f0f0-1111-7222-8333-444455556666';
const DEP = {
  id: '0190f0f0-2222-7222-8333-444455556666',
  code: 'MED',
  name: 'Médecine interne',
  kind: 'clinical',
};
const ward = {
  id: WARD,
  department: DEP,
  name: 'Médecine A',
  code: 'MED-1',
  category: 'standard',
  sex_restriction: null,
  min_age: 16,
  max_age: null,
  is_active: true,
  rooms: 1,
  beds: { total: 3, free: 1, occupied: 1, cleaning: 0, out_of_service: 1 },
};
const detail = {
  ...ward,
  room_list: [
    {
      id: '0190f0f0-3333-7222-8333-444455556666',
      name: '12',
      is_active: true,
      beds: [
        {
          id: '0190f0f0-4444-7222-8333-444455556661',
          label: 'A',
          status: 'free',
          status_reason: null,
          is_active: true,
        },
        {
          id: '0190f0f0-4444-7222-8333-444455556662',
          label: 'B',
          status: 'occupied',
          status_reason: null,
          is_active: true,
        },
        {
          id: '0190f0f0-4444-7222-8333-444455556663',
          label: 'C',
          status: 'out_of_service',
          status_reason: 'Sommier cassé',
          is_active: true,
        },
      ],
    },
  ],
};
const page = (results: unknown[]) =>
  Response.json({ count: results.length, next: null, previous: null, results });
const routes = {
  '/api/wards/': () => page([ward]),
  [`/api/wards/${WARD}/`]: () => Response.json(detail),
  '/api/departments/': () => page([{ ...DEP, is_active: true, head: null }]),
  '/api/doctors/': () => page([]),
};

const hospital = {
  id: 'h1',
  name: 'Hôpital Général de Greensen',
  code: 'HGG',
  time_zone: 'Africa/Kinshasa',
  currency: 'CDF',
  triage_scale: 'FRENCH',
  address: null,
  phones: [],
  languages: ['fr', 'en'],
  print_header: null,
  print_footer: null,
  is_active: true,
};

describe('the hospitals page', () => {
  it('shows each ward with its beds by status, and the rooms with every bed as a coloured chip', async () => {
    const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });
    renderApp('/hospitals', { user: admin, routes });
    const beds = await screen.findByTestId('ward-beds');
    expect(within(beds).getByText('Médecine A')).toBeInTheDocument();
    expect(within(beds).getByText('1 libre')).toBeInTheDocument();
    expect(within(beds).getByText('1 occupé')).toBeInTheDocument();
    expect(within(beds).getByText('1 hors service')).toBeInTheDocument();
    const chips = within(beds).getAllByTestId('bed-chip');
    expect(chips.map((c) => c.getAttribute('data-status'))).toEqual(['free', 'occupied', 'out_of_service']);
    // The administrator changes the structure; an occupied bed offers nothing to change.
    expect(within(beds).getByRole('button', { name: 'Nouvelle chambre' })).toBeInTheDocument();
    await userEvent.click(within(beds).getByRole('button', { name: 'Lit B · occupé' }));
    expect(await screen.findByText('Occupé par un patient : rien à changer ici')).toBeInTheDocument();
    expect(screen.queryByText('Mettre hors service…')).not.toBeInTheDocument();
  });

  it("edits the hospital's details, never its code", async () => {
    const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });
    const saved: unknown[] = [];
    const view = renderApp('/hospitals', {
      user: admin,
      routes: { ...routes, '/api/hospitals/h1/': () => Response.json(hospital) },
    });
    const fallback = view.fetchMock.getMockImplementation()!;
    view.fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'PATCH') {
        const body = JSON.parse(String(init.body));
        saved.push(body);
        return Response.json({ ...hospital, ...body });
      }
      return fallback(input);
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Établissement' }));
    const panel = await screen.findByTestId('hospital-panel');
    expect(within(panel).getByRole('textbox', { name: /Code court/ })).toHaveAttribute('readonly');
    const footer = within(panel).getByRole('textbox', { name: /Pied des documents imprimés/ });
    await user.type(footer, 'Merci de votre confiance');
    await user.click(within(panel).getByRole('button', { name: 'Enregistrer' }));
    await vi.waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });
    expect(saved[0]).toMatchObject({ print_footer: 'Merci de votre confiance', currency: 'CDF' });
    expect(saved[0]).not.toHaveProperty('code');
  });

  it('lets a head doctor look without offering any change, and keeps the module from a nurse', async () => {
    const head = makeUser({ active_roles: [{ role_code: 'HEAD_DOCTOR', hospital: 'h1', department: null }] });
    const view = renderApp('/hospitals', { user: head, routes });
    const beds = await screen.findByTestId('ward-beds');
    expect(within(beds).getAllByTestId('bed-chip')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Nouvelle chambre' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nouvelle unité' })).not.toBeInTheDocument();
    expect(screen.getByText(/seuls les administrateurs les modifient/)).toBeInTheDocument();
    view.unmount();
    // A nurse has nothing to do in the hospital's structure (module × role table): refused with the spec's text.
    const nurse = makeUser({ active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }] });
    renderApp('/hospitals', { user: nurse, routes });
    expect(await screen.findByTestId('access-denied')).toHaveTextContent(
      `L'accès au module "Hôpitaux" n'est pas autorisé pour votre rôle`,
    );
  });
});
