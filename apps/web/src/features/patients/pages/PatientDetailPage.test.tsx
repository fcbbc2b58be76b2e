/**
 * Decision 0070: the pharmacist reads a patient's identity, allergies and prescriptions, not the visits,
 * documents, exams or stays (the server refuses them to her: the page offers nothing that would be refused).
 */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PHARMACY } from '../../../lib/clinical/components/pharmacy.fixture';
import { makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

const PATIENT = '01a20084-3eb7-766e-8fa6-08ca377955bf';
const detail = {
  id: PATIENT,
  record_number: 'HGG-000001',
  first_name: 'Éloïse',
  last_name: 'Kabongo',
  full_name: 'Éloïse Kabongo',
  sex: 'F',
  birth_date: '1988-03-14',
  birth_date_estimated: false,
  age: 38,
  phone: '+243810000001',
  national_id: null,
  allergies: ['Pénicilline'],
  allergies_recorded: true,
  deceased_at: null,
  is_archived: false,
  email: null,
  preferred_language: null,
  address: null,
  emergency_contact_name: null,
  emergency_contact_phone: null,
  blood_group: null,
  insurance_provider: null,
  insurance_number: null,
  archived_at: null,
  archived_reason: null,
  created_at: '2026-12-06T08:00:00Z',
  updated_at: '2026-12-06T08:00:00Z',
  admissions: [
    {
      id: '01a20084-0000-7000-8000-000000000001',
      status: 'waiting',
      admission_type: 'emergency',
      reason: 'Douleur thoracique',
      admitted_at: '2026-12-06T21:22:00Z',
      closed_at: null,
      queue_number: 3,
      department: { id: '01a20084-0000-7000-8000-0000000000d1', name: 'Urgences' },
      triage_level: null,
    },
  ],
  admissions_count: 1,
};

const pharmacist = makeUser({
  id: 'ph1',
  departments: [{ id: PHARMACY.id, name: PHARMACY.name, hospital: 'h1' }],
  active_roles: [{ role_code: 'PHARMACIST', hospital: 'h1', department: PHARMACY.id }],
  roles: [{ code: 'PHARMACIST', name: 'Pharmacist' }],
});
const nurse = makeUser({ active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: 'd1' }] });

const empty = () => Response.json({ count: 0, next: null, previous: null, results: [] });

describe('the patient record', () => {
  it('shows the pharmacist the allergies and the prescriptions, not the visits, documents, exams or stays', async () => {
    const { fetchMock } = renderApp(`/patients/${PATIENT}`, {
      user: pharmacist,
      routes: { [`/api/patients/${PATIENT}/`]: () => Response.json(detail), '/api/prescriptions/': empty },
    });
    expect(await screen.findByText('Pénicilline', {}, { timeout: 15_000 })).toBeInTheDocument();
    const tabs = (await screen.findAllByRole('tab')).map((tab) => tab.textContent);
    expect(tabs).toContain('Ordonnances');
    for (const hidden of ['Admissions', 'Documents', 'Examens', 'Hospitalisations'])
      expect(tabs, hidden).not.toContain(hidden);
    expect(screen.getByRole('tab', { name: 'Ordonnances' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('link', { name: "Voir l'admission en cours" })).not.toBeInTheDocument();
    const paths = fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname);
    expect(paths).not.toContain('/api/admissions/');
    expect(paths).not.toContain('/api/patient-documents/');
  });

  it('keeps the visits first for the care team', async () => {
    renderApp(`/patients/${PATIENT}`, {
      user: nurse,
      routes: { [`/api/patients/${PATIENT}/`]: () => Response.json(detail) },
    });
    expect(await screen.findByRole('tab', { name: 'Admissions' }, { timeout: 15_000 })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByText(/Douleur thoracique/)).toBeInTheDocument();
  });
});
