import type { TExamOrderDetail } from '@greensen/shared/contracts/exams';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { useAuthStore } from '../../../stores/auth';
import { TestProviders } from '../../../test/render';
import { ExamResultForm, valuesOf } from './ExamResultForm';

const ID = '01a20084-3df8-723b-b4f0-7b5799e2dfc2';

function order(over: Partial<TExamOrderDetail> = {}): TExamOrderDetail {
  return {
    id: ID,
    order_number: 'HGG-EX-000007',
    patient: {
      id: '01a20084-3df8-723b-b4f0-7b5799e2dfc3',
      record_number: 'HGG-000012',
      full_name: 'Awa Diop',
      sex: 'M',
      age: 40,
      allergies: [],
      allergies_recorded: false,
    },
    exam: {
      id: '01a20084-3df8-723b-b4f0-7b5799e2dfc4',
      code: 'NFS',
      kind: 'lab',
      category: 'hematology',
      name_fr: 'Numération formule sanguine',
      name_en: 'Full blood count',
      specimen: 'Sang total EDTA',
    },
    department: null,
    consultation: null,
    admission: null,
    urgency: 'urgent',
    clinical_info: null,
    status: 'in_progress',
    abnormal: false,
    result_lines: [],
    has_report: false,
    requested_by: { id: '01a20084-3df8-723b-b4f0-7b5799e2dfc5', full_name: 'Marie Lukusa' },
    requested_at: '2026-05-04T08:00:00.000Z',
    started_at: '2026-05-04T08:10:00.000Z',
    resulted_at: null,
    validated_at: null,
    acknowledged_at: null,
    cancelled_at: null,
    actions: ['results'],
    version: 2,
    fields: [
      {
        key: 'hb',
        label_fr: 'Hémoglobine',
        label_en: 'Haemoglobin',
        type: 'number',
        unit: 'g/dL',
        min: 1,
        max: 25,
        decimals: 1,
        ranges: [
          { sex: 'F', low: 12, high: 16 },
          { sex: 'M', low: 13, high: 17 },
        ],
      },
      {
        key: 'malaria',
        label_fr: 'Paludisme',
        label_en: 'Malaria',
        type: 'choice',
        choices: [
          { value: 'negative', label_fr: 'Négatif', label_en: 'Negative' },
          { value: 'positive', label_fr: 'Positif', label_en: 'Positive', abnormal: true },
        ],
      },
      { key: 'note', label_fr: 'Note', label_en: 'Note', type: 'text', optional: true },
    ],
    results: null,
    report: null,
    reference_age: 40,
    started_by: null,
    resulted_by: null,
    validated_by: null,
    cancelled_by: null,
    cancel_reason: null,
    ...over,
  };
}

function mockServer(answer: (body: Record<string, unknown>) => Response) {
  const puts: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === `/api/exams/${ID}/results/` && init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        puts.push(body);
        return answer(body);
      }
      return Response.json({ detail: 'Not found' }, { status: 404 });
    }),
  );
  return puts;
}

const hbInput = () => screen.getByRole('textbox', { name: /Hémoglobine/ });

describe('exam result form', () => {
  beforeEach(() => {
    queryClient.clear();
    useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
  });

  it('shows the patient’s reference range and previews the flag as the value is typed', async () => {
    mockServer(() => Response.json({}));
    const user = userEvent.setup();
    render(
      <TestProviders>
        <ExamResultForm order={order()} />
      </TestProviders>,
    );
    // A man of 40: the male range applies.
    expect(screen.getByText('Réf. : 13 – 17')).toBeInTheDocument();
    const field = hbInput().closest('.mantine-InputWrapper-root') as HTMLElement;
    await user.type(hbInput(), '12,5');
    expect(within(field).getByTestId('flag-low')).toHaveTextContent('Bas');
    await user.clear(hbInput());
    await user.type(hbInput(), '14');
    expect(within(field).queryByTestId('flag-low')).not.toBeInTheDocument();
    await user.clear(hbInput());
    await user.type(hbInput(), '18.2');
    expect(within(field).getByTestId('flag-high')).toHaveTextContent('Élevé');
  });

  it('uses the female range for a woman', () => {
    mockServer(() => Response.json({}));
    render(
      <TestProviders>
        <ExamResultForm order={order({ patient: { ...order().patient, sex: 'F' } })} />
      </TestProviders>,
    );
    expect(screen.getByText('Réf. : 12 – 16')).toBeInTheDocument();
  });

  it('refuses missing and implausible values before sending, then sends numbers', async () => {
    const puts = mockServer(() => Response.json(order({ status: 'completed', version: 3 })));
    const onSaved = vi.fn();
    const user = userEvent.setup();
    render(
      <TestProviders>
        <ExamResultForm order={order()} onSaved={onSaved} />
      </TestProviders>,
    );
    await user.type(hbInput(), '250');
    await user.click(screen.getByRole('button', { name: 'Enregistrer les résultats' }));
    expect(await screen.findByText('Valeur hors limites : 1–25.')).toBeInTheDocument();
    expect(hbInput()).toHaveValue('250');
    expect(screen.getByText('Valeur requise.')).toBeInTheDocument();
    await user.clear(hbInput());
    await user.type(hbInput(), 'abc');
    await user.click(screen.getByRole('button', { name: 'Enregistrer les résultats' }));
    expect(
      await screen.findByText('Nombre illisible : des chiffres, et une seule virgule pour les décimales.'),
    ).toBeInTheDocument();
    expect(puts).toHaveLength(0);

    await user.clear(hbInput());
    await user.type(hbInput(), '12,5');
    await user.click(screen.getByRole('combobox', { name: /Paludisme/ }));
    await user.click(await screen.findByRole('option', { name: 'Positif', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Enregistrer les résultats' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(puts[0]).toEqual({
      results: { hb: 12.5, malaria: 'positive', note: null },
      report: null,
      version: 2,
    });
  });

  it('shows the server’s field errors as returned', async () => {
    mockServer(() =>
      Response.json({ 'results.hb': ['Valeur refusée par le laboratoire.'] }, { status: 400 }),
    );
    const user = userEvent.setup();
    render(
      <TestProviders>
        <ExamResultForm order={order({ fields: order().fields.slice(0, 1) })} />
      </TestProviders>,
    );
    await user.type(hbInput(), '14');
    await user.click(screen.getByRole('button', { name: 'Enregistrer les résultats' }));
    expect(await screen.findByText('Valeur refusée par le laboratoire.')).toBeInTheDocument();
  });

  it('requires the report of an imaging study', async () => {
    const puts = mockServer(() => Response.json(order()));
    const user = userEvent.setup();
    render(
      <TestProviders>
        <ExamResultForm
          order={order({ exam: { ...order().exam, kind: 'imaging', code: 'TDM' }, fields: [] })}
        />
      </TestProviders>,
    );
    await user.click(screen.getByRole('button', { name: 'Enregistrer les résultats' }));
    expect(await screen.findByText('Le compte rendu est requis.')).toBeInTheDocument();
    expect(puts).toHaveLength(0);
  });
});

describe('values sent', () => {
  it('parses typed numbers with a comma and keeps what is not a number for the validation', () => {
    expect(valuesOf(order().fields, { hb: ' 12,5 ', malaria: '', note: 'x' })).toEqual({
      hb: 12.5,
      malaria: null,
      note: 'x',
    });
    expect(valuesOf(order().fields, { hb: 'douze', malaria: 'positive', note: '' }).hb).toBe('douze');
  });
});
