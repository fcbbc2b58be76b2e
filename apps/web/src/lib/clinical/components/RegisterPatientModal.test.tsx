import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth';
import { TestProviders } from '../../../test/render';
import { queryClient } from '../../query-client';
import { RegisterPatientModal } from './RegisterPatientModal';

const existing = {
  id: '01a20084-3eb7-766e-8fa6-08ca377955bf',
  record_number: 'HGG-000013',
  first_name: 'Grâce',
  last_name: 'Mbuyi',
  full_name: 'Grâce Mbuyi',
  sex: 'F',
  birth_date: '1990-04-12',
  birth_date_estimated: false,
  age: 36,
  phone: '+243812345678',
  national_id: null,
  allergies: ['Pénicilline'],
  is_archived: false,
  score: 0.9,
  reasons: ['name', 'birth_date'],
};

function mockServer() {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method: init?.method ?? 'GET', path: url.pathname, body });
    if (url.pathname === '/api/patients/check-duplicates/') return Response.json({ duplicates: [existing] });
    if (url.pathname === '/api/patients/' && init?.method === 'POST') {
      return Response.json(
        {
          ...existing,
          id: '01a20084-0000-7000-8000-000000000001',
          record_number: 'HGG-000099',
          allergies: [],
        },
        { status: 201 },
      );
    }
    return Response.json({ detail: 'Not found' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

async function fillIdentity() {
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: /^Nom/ }), 'Mbuyi');
  await user.type(screen.getByRole('textbox', { name: /^Prénom/ }), 'Grace');
  await user.click(screen.getByRole('radio', { name: 'Femme' }));
  return user;
}

async function fillForm() {
  const user = await fillIdentity();
  fireEvent.change(screen.getByLabelText(/Date de naissance/), { target: { value: '1990-04-12' } });
  return user;
}

/** The dialog opened against the mocked server: the calls it makes and its callbacks. */
function openDialog() {
  const calls = mockServer();
  const onCreated = vi.fn();
  const onOpenExisting = vi.fn();
  render(
    <TestProviders>
      <RegisterPatientModal opened onClose={() => {}} onCreated={onCreated} onOpenExisting={onOpenExisting} />
    </TestProviders>,
  );
  return { calls, onCreated, onOpenExisting };
}

const submit = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: 'Enregistrer le patient' }));

describe('patient registration', { timeout: 60_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
  });

  it('checks for duplicates first, shows them, and creates the record only once confirmed', async () => {
    const { calls, onCreated, onOpenExisting } = openDialog();
    const user = await fillForm();
    await submit(user);

    expect(await screen.findByTestId('duplicate-warning')).toBeInTheDocument();
    expect(screen.getByText('Grâce Mbuyi')).toBeInTheDocument();
    expect(screen.getByText('Pénicilline')).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/patients/check-duplicates/']);
    expect(calls[0]?.body).toMatchObject({
      first_name: 'Grace',
      last_name: 'Mbuyi',
      birth_date: '1990-04-12',
    });

    // Opening the existing record is the main action; creating a new one asks for a confirmation first.
    await user.click(screen.getByRole('button', { name: 'Créer un nouveau dossier' }));
    expect(await screen.findByTestId('confirm-new-record')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/patients/')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: "Oui, c'est un autre patient" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    const create = calls.find((c) => c.method === 'POST' && c.path === '/api/patients/');
    expect(create?.body).toMatchObject({ last_name: 'Mbuyi', sex: 'F', confirm_duplicate: true });
    expect(onOpenExisting).not.toHaveBeenCalled();
  });

  it('opens the existing record instead of creating a new one', async () => {
    const { calls, onOpenExisting } = openDialog();
    const user = await fillForm();
    await submit(user);
    await user.click(await screen.findByRole('button', { name: 'Ouvrir ce dossier' }));
    expect(onOpenExisting).toHaveBeenCalledWith(expect.objectContaining({ id: existing.id }));
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/patients/')).toBe(false);
  });

  it('validates with the shared schema before calling the server', async () => {
    const { calls } = openDialog();
    const user = await fillIdentity();
    await submit(user);
    expect(await screen.findByText('Indiquez la date de naissance ou un âge estimé.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('takes the email and the language of reminders, the email checked before any call', async () => {
    const { calls, onCreated } = openDialog();
    const user = await fillForm();
    const email = screen.getByRole('textbox', { name: /E-mail/ });
    await user.type(email, 'grace@exemple');
    await submit(user);
    expect(await screen.findByText('Adresse e-mail invalide.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.type(email, '.cd');
    await user.click(screen.getByRole('combobox', { name: /Langue des messages/ }));
    await user.click(await screen.findByRole('option', { name: 'Anglais', hidden: true }));
    await submit(user);
    await user.click(await screen.findByRole('button', { name: 'Créer un nouveau dossier' }));
    await user.click(await screen.findByRole('button', { name: "Oui, c'est un autre patient" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    const create = calls.find((c) => c.method === 'POST' && c.path === '/api/patients/');
    expect(create?.body).toMatchObject({ email: 'grace@exemple.cd', preferred_language: 'en' });
  });
});
