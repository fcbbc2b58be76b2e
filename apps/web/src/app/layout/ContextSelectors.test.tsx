import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { useAuthStore } from '../../stores/auth';
import { useUserStore } from '../../stores/user';
import { makeUser, TestProviders } from '../../test/render';
import { HospitalSwitcher } from './ContextSelectors';

const H1 = '00000000-0000-7000-8000-000000000001';
const H2 = '00000000-0000-7000-8000-000000000002';

beforeEach(() => {
  queryClient.clear();
  useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: H1 });
  useUserStore.setState({
    user: makeUser({
      hospitals: [
        { id: H1, name: 'Hôpital Général de Greensen', code: 'HGG' },
        { id: H2, name: 'Clinique du Fleuve', code: 'CDF' },
      ],
    }),
  });
});
afterEach(() => vi.unstubAllGlobals());

function serve(results: unknown[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/profile/waiting/') return Response.json({ results });
    return Response.json({ detail: 'Not found' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('the hospital selector (issue 25)', () => {
  it('says what waits in her other hospital, not in the one she is working in', async () => {
    serve([
      { hospital: H1, waiting_patients: 4, abnormal_results: 0, unread_notifications: 2 },
      { hospital: H2, waiting_patients: 3, abnormal_results: 1, unread_notifications: 0 },
    ]);
    render(
      <TestProviders>
        <HospitalSwitcher />
      </TestProviders>,
    );
    const select = screen.getByLabelText('Hôpital', { selector: 'input:not([type=hidden])' });
    expect(await screen.findByText('', { selector: '.mantine-Indicator-indicator' })).toBeInTheDocument();
    expect(select).toHaveAccessibleDescription('Du travail vous attend aussi à : CDF');
    await userEvent.click(select);
    const other = await screen.findByRole('option', { name: /CDF · Clinique du Fleuve/, hidden: true });
    expect(other).toHaveTextContent('3 patients en attente · 1 résultat anormal');
    const current = screen.getByRole('option', { name: /HGG/, hidden: true });
    expect(current).not.toHaveTextContent('en attente');
  });

  it('shows nothing when nothing waits elsewhere, and asks nothing with a single hospital', async () => {
    const fetchMock = serve([
      { hospital: H2, waiting_patients: 0, abnormal_results: 0, unread_notifications: 0 },
    ]);
    const { unmount } = render(
      <TestProviders>
        <HospitalSwitcher />
      </TestProviders>,
    );
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled(), { timeout: 10_000 });
    expect(
      screen.getByLabelText('Hôpital', { selector: 'input:not([type=hidden])' }),
    ).not.toHaveAccessibleDescription();
    expect(document.querySelector('.mantine-Indicator-indicator')).toBeNull();
    unmount();
    fetchMock.mockClear();
    useUserStore.setState({ user: makeUser() });
    render(
      <TestProviders>
        <HospitalSwitcher />
      </TestProviders>,
    );
    expect(screen.getByLabelText('Hôpital', { selector: 'input:not([type=hidden])' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
