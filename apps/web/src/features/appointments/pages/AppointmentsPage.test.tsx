import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APPOINTMENT_ID,
  appointment,
  DEPARTMENT,
  DOCTOR,
  PATIENT,
  page,
  slot,
  todayAt,
} from '../../../lib/clinical/components/appointments.fixture';
import { stubDesktopWidth } from '../../../test/media-query';
import { type MockRequest, makeUser, renderApp } from '../../../test/render';

beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const secretary = makeUser({
  id: 'u-sec',
  active_roles: [{ role_code: 'SECRETARY', hospital: 'h1', department: null }],
  roles: [{ code: 'SECRETARY', name: 'Secrétaire' }],
});
const headDoctor = makeUser({
  id: 'u-head',
  active_roles: [{ role_code: 'HEAD_DOCTOR', hospital: 'h1', department: null }],
  roles: [{ code: 'HEAD_DOCTOR', name: 'Chef de service' }],
});
const admin = makeUser({
  id: 'u-admin',
  active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }],
  roles: [{ code: 'ADMIN', name: 'Administrateur' }],
});

const SLOT_A = slot(todayAt(9, 0, 1));
const SLOT_B = slot(todayAt(9, 20, 1));

function routes(overrides: Record<string, (r: MockRequest) => Response> = {}) {
  return {
    '/api/departments/': () => page([{ ...DEPARTMENT, is_active: true }]),
    '/api/appointments/providers/': () =>
      Response.json({ results: [{ ...DOCTOR, departments: [DEPARTMENT] }] }),
    '/api/appointments/': () => page([appointment()]),
    '/api/patients/': () => page([PATIENT]),
    '/api/appointments/slots/': () =>
      Response.json({ results: [SLOT_A, SLOT_B], truncated: false, time_zone: 'UTC' }),
    ...overrides,
  };
}

async function pickOption(user: ReturnType<typeof userEvent.setup>, label: RegExp, option: string) {
  const dialog = screen.getByTestId('booking-form');
  const input = within(dialog).getByLabelText(label, { selector: 'input' });
  await user.click(input);
  // The options of this select (the page's filters list the same names).
  await waitFor(() => expect(input.getAttribute('aria-controls')).toBeTruthy());
  const listbox = document.getElementById(input.getAttribute('aria-controls') ?? '') as HTMLElement;
  await user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
}

describe('the appointments list', { timeout: 60_000 }, () => {
  it('lists the appointments from today with their patient, provider and status, and opens one', async () => {
    const user = userEvent.setup();
    const { fetchMock, router } = renderApp('/appointments', { user: secretary, routes: routes() });
    await waitFor(
      () => {
        const row = screen.getByRole('row', { name: /Bénédicte Ngalula/ });
        expect(row).toHaveTextContent('Dr Awa Diop');
        expect(within(row).getByTestId('appointment-status')).toHaveTextContent('Réservé');
      },
      { timeout: 15_000 },
    );
    const listCall = fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://x'))
      .find((url) => url.pathname === '/api/appointments/');
    expect(listCall?.searchParams.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(listCall?.searchParams.get('page_size')).toBe('20');
    await user.click(
      within(screen.getByRole('row', { name: /Bénédicte Ngalula/ })).getByText('Bénédicte Ngalula'),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe(`/appointments/${APPOINTMENT_ID}`));
  });

  it('says when there is nothing, and offers to retry after a failure', async () => {
    let fail = true;
    const user = userEvent.setup();
    renderApp('/appointments', {
      user: secretary,
      routes: routes({
        '/api/appointments/': () => (fail ? Response.json({ detail: 'Panne' }, { status: 500 }) : page([])),
      }),
    });
    expect(await screen.findByText('Panne', {}, { timeout: 15_000 })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText('Aucun rendez-vous à partir de cette date.')).toBeInTheDocument();
  });

  it('is not offered to a role that does not book: the module guard refuses it (no call, no button)', async () => {
    const { fetchMock } = renderApp('/appointments', { user: admin, routes: routes() });
    expect(await screen.findByTestId('access-denied', {}, { timeout: 15_000 })).toHaveTextContent(
      `L'accès au module "Rendez-vous" n'est pas autorisé pour votre rôle`,
    );
    expect(screen.queryByTestId('appointments-page')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nouveau rendez-vous' })).not.toBeInTheDocument();
    const paths = fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://x').pathname);
    expect(paths).not.toContain('/api/appointments/');
  });
});

describe('booking an appointment', { timeout: 60_000 }, () => {
  async function openBooking(
    options: {
      user?: typeof secretary;
      post?: (r: MockRequest) => Response;
      extra?: Record<string, (r: MockRequest) => Response>;
    } = {},
  ) {
    const user = userEvent.setup();
    let slotCalls = 0;
    let taken = false;
    const view = renderApp('/appointments', {
      user: options.user ?? secretary,
      routes: routes({
        '/api/appointments/': (r) => {
          if (r.method !== 'POST' || !options.post) return page([appointment()]);
          const answer = options.post(r);
          taken = answer.status === 409;
          return answer;
        },
        '/api/appointments/slots/': () => {
          slotCalls += 1;
          // Once someone else took it, the first slot is no longer free.
          const results = taken ? [SLOT_B] : [SLOT_A, SLOT_B];
          return Response.json({ results, truncated: false, time_zone: 'UTC' });
        },
        ...options.extra,
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Nouveau rendez-vous' }, { timeout: 15_000 }));
    const dialog = await screen.findByTestId('booking-form');
    return { user, dialog, slotCalls: () => slotCalls, ...view };
  }

  async function fillAndPickFirstSlot(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
    const patient = within(dialog).getByLabelText(/^Patient/, { selector: 'input' });
    await user.type(patient, 'Ngalula');
    await user.click(await screen.findByText('Bénédicte Ngalula · HGG-000042'));
    await pickOption(user, /^Prestataire/, 'Dr Awa Diop');
    await pickOption(user, /^Type de rendez-vous/, 'Suivi');
    const slots = await within(dialog).findAllByTestId('slot');
    await user.click(slots[0] as HTMLElement);
    await user.type(within(dialog).getByLabelText(/^Motif/), 'Contrôle de tension');
  }

  it('books the chosen free slot of a provider', async () => {
    const posts: unknown[] = [];
    const { user, dialog, router } = await openBooking({
      post: (r) => {
        posts.push(r.body);
        return Response.json(appointment({ start: SLOT_A.start }), { status: 201 });
      },
    });
    await fillAndPickFirstSlot(user, dialog);
    expect(within(dialog).getByTestId('chosen-slot')).toHaveTextContent('Dr Awa Diop');
    await user.click(within(dialog).getByRole('button', { name: 'Réserver' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/appointments/${APPOINTMENT_ID}`));
    expect(posts).toHaveLength(1);
    expect(posts[0]).toEqual({
      patient: PATIENT.id,
      provider: DOCTOR.id,
      department: DEPARTMENT.id,
      start: SLOT_A.start,
      appointment_type: 'follow_up',
      reason: 'Contrôle de tension',
      notes: null,
    });
  });

  /** The registration dialog opened from the booking form, its identity filled. */
  async function registerOnTheSpot(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
    await user.click(within(dialog).getByTestId('register-patient'));
    const register = await screen.findByRole('dialog', { name: 'Nouveau patient' });
    await user.type(within(register).getByRole('textbox', { name: /^Nom/ }), 'Kabila');
    await user.type(within(register).getByRole('textbox', { name: /^Prénom/ }), 'Joséphine');
    await user.click(within(register).getByRole('radio', { name: 'Femme' }));
    fireEvent.change(within(register).getByLabelText(/Date de naissance/), {
      target: { value: '1992-03-04' },
    });
    await user.click(within(register).getByRole('button', { name: 'Enregistrer le patient' }));
    return register;
  }

  it('registers a new patient on the spot and books for them', { timeout: 180_000 }, async () => {
    const NEW = {
      ...PATIENT,
      id: '0190f0f0-aaaa-7222-8333-444455550020',
      full_name: 'Joséphine Kabila',
      record_number: 'HGG-000777',
    };
    const created: unknown[] = [];
    const posts: unknown[] = [];
    const { user, dialog } = await openBooking({
      post: (r) => {
        posts.push(r.body);
        return Response.json(appointment({ start: SLOT_A.start }), { status: 201 });
      },
      extra: {
        '/api/patients/check-duplicates/': () => Response.json({ duplicates: [] }),
        '/api/patients/': (r) => {
          if (r.method !== 'POST') return page([PATIENT]);
          created.push(r.body);
          return Response.json(NEW, { status: 201 });
        },
      },
    });
    await registerOnTheSpot(user, dialog);
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Nouveau patient' })).not.toBeInTheDocument(),
    );
    expect(created[0]).toMatchObject({
      last_name: 'Kabila',
      first_name: 'Joséphine',
      confirm_duplicate: false,
    });
    // The new patient is the booking's patient.
    expect(within(dialog).getByLabelText(/^Patient/, { selector: 'input' })).toHaveValue(
      'Joséphine Kabila · HGG-000777',
    );
    await pickOption(user, /^Prestataire/, 'Dr Awa Diop');
    await pickOption(user, /^Type de rendez-vous/, 'Suivi');
    await user.click((await within(dialog).findAllByTestId('slot'))[0] as HTMLElement);
    await user.type(within(dialog).getByLabelText(/^Motif/), 'Première consultation');
    await user.click(within(dialog).getByRole('button', { name: 'Réserver' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ patient: NEW.id, provider: DOCTOR.id });
  });

  it('warns of a probable duplicate when registering on the spot, and picks the existing record instead', async () => {
    const created: unknown[] = [];
    const { user, dialog } = await openBooking({
      extra: {
        '/api/patients/check-duplicates/': () =>
          Response.json({
            duplicates: [
              {
                ...PATIENT,
                first_name: 'Bénédicte',
                last_name: 'Ngalula',
                birth_date: '1992-03-04',
                birth_date_estimated: false,
                phone: null,
                national_id: null,
                is_archived: false,
                score: 0.9,
                reasons: ['name', 'birth_date'],
              },
            ],
          }),
        '/api/patients/': (r) => {
          if (r.method === 'POST') created.push(r.body);
          return page([]);
        },
      },
    });
    const register = await registerOnTheSpot(user, dialog);
    expect(await within(register).findByTestId('duplicate-warning')).toHaveTextContent('HGG-000042');
    await user.click(within(register).getByRole('button', { name: 'Choisir ce patient' }));
    await waitFor(() => expect(screen.queryByTestId('duplicate-warning')).not.toBeInTheDocument());
    expect(created).toHaveLength(0);
    expect(within(dialog).getByLabelText(/^Patient/, { selector: 'input' })).toHaveValue(
      'Bénédicte Ngalula · HGG-000042',
    );
  });

  it('says clearly that the last place was just taken (409) and asks for the slots again', async () => {
    const { user, dialog, slotCalls } = await openBooking({
      post: () => Response.json({ detail: 'Ce créneau est complet.' }, { status: 409 }),
    });
    await fillAndPickFirstSlot(user, dialog);
    const before = slotCalls();
    await user.click(within(dialog).getByRole('button', { name: 'Réserver' }));
    const alert = await within(dialog).findByTestId('slot-taken');
    expect(alert).toHaveTextContent("Ce créneau vient d'être pris");
    expect(alert).toHaveTextContent('Ce créneau est complet.');
    await waitFor(() => expect(slotCalls()).toBeGreaterThan(before));
    // The taken slot is gone from the refreshed list and nothing is chosen any more.
    await waitFor(() => expect(within(dialog).getAllByTestId('slot')).toHaveLength(1));
    expect(within(dialog).queryByTestId('chosen-slot')).not.toBeInTheDocument();
    expect(screen.getByTestId('booking-form')).toBeInTheDocument();
  });

  it("opens prefilled from a consultation's follow-up: the patient, the doctor, follow-up, slots from its date", async () => {
    const user = userEvent.setup();
    const asked: URLSearchParams[] = [];
    const posts: unknown[] = [];
    const followUpDate = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const { router } = renderApp('/', {
      user: secretary,
      routes: routes({
        '/api/appointments/slots/': (r) => {
          asked.push(r.url.searchParams);
          return Response.json({ results: [SLOT_A, SLOT_B], truncated: false, time_zone: 'UTC' });
        },
        '/api/appointments/': (r) => {
          if (r.method !== 'POST') return page([appointment()]);
          posts.push(r.body);
          return Response.json(appointment(), { status: 201 });
        },
      }),
    });
    await screen.findAllByRole('navigation', {}, { timeout: 15_000 });
    // What the consultation's "Prendre le rendez-vous de suivi" sends: the request in the navigation's state.
    await router.navigate('/appointments', {
      state: {
        followUp: { patient: PATIENT, from: followUpDate, provider: DOCTOR.id, department: DEPARTMENT.id },
      },
    });
    const dialog = await screen.findByTestId('booking-form', {}, { timeout: 15_000 });
    expect(within(dialog).getByLabelText(/^Patient/, { selector: 'input' })).toHaveValue(
      'Bénédicte Ngalula · HGG-000042',
    );
    await waitFor(() => expect(asked.length).toBeGreaterThan(0));
    const last = asked.at(-1)!;
    expect(last.get('provider')).toBe(DOCTOR.id);
    expect(last.get('from')).toBe(followUpDate);
    expect(last.get('type')).toBe('follow_up');
    // No patient in the address.
    expect(router.state.location.search).toBe('');
    const slots = await within(dialog).findAllByTestId('slot');
    await user.click(slots[0] as HTMLElement);
    await user.type(within(dialog).getByLabelText(/^Motif/), 'Contrôle après paludisme');
    await user.click(within(dialog).getByRole('button', { name: 'Réserver' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({
      patient: PATIENT.id,
      provider: DOCTOR.id,
      appointment_type: 'follow_up',
    });
  });

  it('offers overbooking to head doctors only', async () => {
    const first = await openBooking();
    expect(within(first.dialog).queryByTestId('overbook-switch')).not.toBeInTheDocument();
    first.unmount();
    const second = await openBooking({ user: headDoctor });
    expect(within(second.dialog).getByTestId('overbook-switch')).toBeInTheDocument();
  });
});
