import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth';
import { TestProviders } from '../../../test/render';
import { queryClient } from '../../query-client';
import { PatientPicker } from './PatientPicker';

const patient = (id: string, first: string, number: string) => ({
  id,
  record_number: number,
  full_name: first,
  sex: 'F',
  age: 30,
  birth_date: null,
  phone: null,
  allergies: [],
  is_archived: false,
});
const AMANI = patient('01a20084-0000-7000-8000-0000000000a1', 'Amani Kabila', 'HGG-000001');
const BEYA = patient('01a20084-0000-7000-8000-0000000000b2', 'Beya Tshala', 'HGG-000002');

function mockServer() {
  const searches: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/patients/') {
        const search = url.searchParams.get('search') ?? '';
        searches.push(search);
        const results = [AMANI, BEYA].filter((p) => p.full_name.toLowerCase().includes(search.toLowerCase()));
        return Response.json({ count: results.length, next: null, previous: null, results });
      }
      return Response.json({ detail: 'Not found' }, { status: 404 });
    }),
  );
  return searches;
}

function Picker({ onPick, fixed }: { onPick?: (id: string) => void; fixed?: typeof AMANI }) {
  const [value, setValue] = useState('');
  return (
    <PatientPicker
      label="Patient"
      nothingFound="Aucun patient"
      fixed={fixed ?? null}
      value={value}
      onChange={(id) => {
        setValue(id);
        onPick?.(id);
      }}
    />
  );
}

describe('patient picker', () => {
  beforeEach(() => {
    queryClient.clear();
    useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
  });

  it('searches on the server, picks a patient and keeps them listed whatever the next search', async () => {
    const searches = mockServer();
    const onPick = vi.fn();
    const user = userEvent.setup();
    render(
      <TestProviders>
        <Picker onPick={onPick} />
      </TestProviders>,
    );
    const input = screen.getByLabelText(/^Patient/, { selector: 'input' });
    await user.click(input);
    await user.type(input, 'beya');
    await waitFor(() => expect(searches).toContain('beya'));
    await user.click(await screen.findByText('Beya Tshala · HGG-000002'));
    expect(onPick).toHaveBeenLastCalledWith(BEYA.id);
    await user.clear(input);
    await user.type(input, 'amani');
    await waitFor(() => expect(searches).toContain('amani'));
    await screen.findByText('Amani Kabila · HGG-000001');
    expect(screen.getByText('Beya Tshala · HGG-000002')).toBeTruthy();
  });

  it('shows a fixed patient disabled, without searching', async () => {
    const searches = mockServer();
    render(
      <TestProviders>
        <Picker fixed={AMANI} />
      </TestProviders>,
    );
    const input = screen.getByLabelText(/^Patient/, { selector: 'input' }) as HTMLInputElement;
    expect(input.disabled).toBe(true);
    expect(input.value).toBe('Amani Kabila · HGG-000001');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(searches).toEqual([]);
  });
});
