import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth';
import { TestProviders } from '../../../test/render';
import { queryClient } from '../../query-client';
import { TriageForm } from './TriageForm';

const ADMISSION = '01a20084-3df8-723b-b4f0-7b5799e2dfc2';

function mockServer() {
  const posts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/triage/' && init?.method === 'POST') {
        const body = JSON.parse(String(init.body));
        posts.push(body);
        return Response.json({ id: 't1', level: body.level }, { status: 201 });
      }
      return Response.json({ detail: 'Not found' }, { status: 404 });
    }),
  );
  return posts;
}

function suggestion() {
  return within(screen.getByTestId('triage-suggestion')).getByTestId('triage-level');
}

describe('triage form', () => {
  beforeEach(() => {
    queryClient.clear();
    useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
  });

  it('shows the suggested FRENCH level live and requires a reason to override it', async () => {
    const posts = mockServer();
    const onDone = vi.fn();
    const user = userEvent.setup();
    render(
      <TestProviders>
        <TriageForm admissionId={ADMISSION} scale="FRENCH" onDone={onDone} />
      </TestProviders>,
    );
    // Nothing to suggest from yet: no level is suggested (a level 5 would anchor the nurse on the least urgent).
    expect(screen.getByTestId('no-suggestion')).toHaveTextContent(
      "aucune tant qu'aucun signe vital n'est saisi",
    );
    await user.type(screen.getByLabelText('Fréquence cardiaque'), '135');
    await waitFor(() => expect(suggestion()).toHaveTextContent('2'));
    await user.type(screen.getByLabelText('SpO₂'), '84');
    await waitFor(() => expect(suggestion()).toHaveTextContent('1'));

    await user.type(screen.getByLabelText(/Motif de recours/), 'Dyspnée');
    // The nurse chooses a less severe level than the suggestion: a reason becomes mandatory.
    await user.click(screen.getByRole('radio', { name: 'Niveau 2' }));
    expect(screen.getByText(/Niveau différent du niveau suggéré \(1\)/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Enregistrer le tri' }));
    expect(
      await screen.findByText('Indiquez pourquoi le niveau diffère du niveau suggéré.'),
    ).toBeInTheDocument();
    expect(posts).toHaveLength(0);

    await user.type(
      screen.getByLabelText(/Raison du changement de niveau/),
      'Oxymètre défectueux, recontrôlé à 95 %',
    );
    await user.click(screen.getByRole('button', { name: 'Enregistrer le tri' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('t1'));
    expect(posts[0]).toMatchObject({
      admission: ADMISSION,
      level: '2',
      override_reason: 'Oxymètre défectueux, recontrôlé à 95 %',
      chief_complaint: 'Dyspnée',
      vitals: { heart_rate: 135, spo2: 84 },
    });
    // Typed key by key in several clinical number fields: slow when the suite shares the machine with the server's.
  }, 60_000);

  it('computes the SATS TEWS live and keeps the suggested level without a reason', async () => {
    const posts = mockServer();
    const user = userEvent.setup();
    render(
      <TestProviders>
        <TriageForm admissionId={ADMISSION} scale="SATS" onDone={() => {}} />
      </TestProviders>,
    );
    expect(screen.getByTestId('no-suggestion')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Fréquence respiratoire'), '32'); // 3 points
    await user.type(screen.getByLabelText('Fréquence cardiaque'), '135'); // 3 points
    await waitFor(() => expect(screen.getByTestId('tews')).toHaveTextContent('TEWS : 6'));
    expect(suggestion()).toHaveTextContent('Orange');
    await user.type(screen.getByLabelText(/Motif de recours/), 'Détresse respiratoire');
    await user.click(screen.getByRole('button', { name: 'Enregistrer le tri' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ level: 'orange', override_reason: null });
    // Typed key by key in several clinical number fields: slow when the suite shares the machine with the server's.
  }, 60_000);

  it('reads a decimal comma like a point, and suggests nothing from a value it cannot read', async () => {
    const posts = mockServer();
    const user = userEvent.setup();
    render(
      <TestProviders>
        <TriageForm admissionId={ADMISSION} scale="FRENCH" onDone={() => {}} />
      </TestProviders>,
    );
    const temperature = screen.getByLabelText('Température');
    await user.type(temperature, '39,4,1');
    await user.tab();
    expect(
      await screen.findByText('Nombre illisible : des chiffres, et une seule virgule pour les décimales.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('no-suggestion')).toHaveTextContent('corrigez les valeurs non comprises');
    await user.type(screen.getByLabelText(/Motif de recours/), 'Fièvre');
    await user.click(screen.getByRole('button', { name: 'Enregistrer le tri' }));
    expect(await screen.findByText('Choisissez un niveau de tri.')).toBeInTheDocument();
    expect(posts).toHaveLength(0);

    await user.clear(temperature);
    await user.type(temperature, '39,4');
    await waitFor(() => expect(screen.queryByTestId('no-suggestion')).not.toBeInTheDocument());
    const withComma = suggestion().textContent;
    await user.clear(temperature);
    await user.type(temperature, '39.4');
    await waitFor(() => expect(suggestion().textContent).toBe(withComma));
    await user.click(screen.getByRole('button', { name: 'Enregistrer le tri' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ vitals: { temperature: 39.4 } });
  });

  it("starts the chief complaint from the admission's reason, not retyped", async () => {
    mockServer();
    render(
      <TestProviders>
        <TriageForm admissionId={ADMISSION} scale="FRENCH" complaint="Douleur thoracique" onDone={() => {}} />
      </TestProviders>,
    );
    expect(screen.getByLabelText(/Motif de recours/)).toHaveValue('Douleur thoracique');
  });

  it('refuses a vital sign outside the physiological bounds under its field', async () => {
    const posts = mockServer();
    const user = userEvent.setup();
    render(
      <TestProviders>
        <TriageForm admissionId={ADMISSION} scale="FRENCH" onDone={() => {}} />
      </TestProviders>,
    );
    await user.type(screen.getByLabelText('Fréquence cardiaque'), '900');
    await user.type(screen.getByLabelText(/Motif de recours/), 'Palpitations');
    await user.click(screen.getByRole('button', { name: 'Enregistrer le tri' }));
    // Said as the field's bounds, the typed value kept (never clamped to 250).
    expect(await screen.findByText('Valeur hors limites : 20–250 /min.')).toBeInTheDocument();
    expect(screen.getByLabelText('Fréquence cardiaque')).toHaveValue('900');
    expect(posts).toHaveLength(0);
  });
});
