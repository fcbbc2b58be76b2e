import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../../../test/render';
import { PatientBanner, PatientCell } from './PatientBanner';

const patient = {
  id: '01900000-0000-7000-8000-000000000001',
  record_number: 'HGG-000017',
  full_name: 'Rose Kasongo',
  sex: 'F',
  age: 79,
  allergies: [],
  allergies_recorded: true,
};

describe('a deceased patient (issue 17)', () => {
  it('says so beside the name wherever the patient appears, with the date and time', () => {
    render(
      <TestProviders>
        <MemoryRouter>
          <PatientBanner patient={{ ...patient, deceased_at: '2026-11-25T08:40:00.000Z' }} />
          <PatientCell patient={{ ...patient, deceased_at: '2026-11-25T08:40:00.000Z' }} />
        </MemoryRouter>
      </TestProviders>,
    );
    const badges = screen.getAllByTestId('deceased-badge');
    expect(badges).toHaveLength(2);
    expect(badges[0]).toHaveTextContent(/^Décédé\(e\) le 25\/11\/2026/);
  });

  it('shows nothing of the kind for a living patient', () => {
    render(
      <TestProviders>
        <MemoryRouter>
          <PatientBanner patient={{ ...patient, deceased_at: null }} />
        </MemoryRouter>
      </TestProviders>,
    );
    expect(screen.queryByTestId('deceased-badge')).not.toBeInTheDocument();
  });
});
