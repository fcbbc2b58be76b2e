import type { TAuditList } from '@greensen/shared/contracts/audit';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubDesktopWidth } from '../../../test/media-query';
import { makeUser, renderApp } from '../../../test/render';

beforeEach(stubDesktopWidth);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });
const rows: TAuditList = {
  count: 1,
  next: null,
  previous: null,
  results: [
    {
      id: '0197a3b0-0000-7000-8000-0000000000f1',
      occurred_at: '2026-11-25T09:30:00Z',
      actor: { kind: 'user', id: '0197a3b0-0000-7000-8000-000000000001', full_name: 'Awa Ndiaye' },
      user: { id: '0197a3b0-0000-7000-8000-000000000001', full_name: 'Awa Ndiaye', email: 'awa@h.test' },
      role_code: 'NURSE',
      hospital: '0197a3b0-0000-7000-8000-000000000101',
      patient: {
        id: '0197a3b0-0000-7000-8000-0000000000p1'.replace('p1', '02'),
        record_number: 'HGG-000042',
        full_name: 'Moussa Traoré',
      },
      action: 'patient.read',
      resource_type: 'patient',
      resource_id: 'x',
      outcome: 'success',
      ip: '10.0.0.7',
      request_id: 'r1',
      details: null,
    },
  ],
};

describe('the audit tab', () => {
  it('shows who read which record, when and from where, filters by action, and exports the same filters', async () => {
    const view = renderApp('/admin', {
      user: admin,
      routes: {
        '/api/admin/audit/': () => Response.json(rows),
        '/api/admin/audit/export/': () =>
          new Response('\uFEFF"occurred_at"\r\n', {
            headers: {
              'content-type': 'text/csv',
              'content-disposition': 'attachment; filename="audit-HGG.csv"',
            },
          }),
      },
    });
    URL.createObjectURL = vi.fn(() => 'blob:audit');
    URL.revokeObjectURL = vi.fn();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Audit' }));
    const panel = await screen.findByTestId('audit-panel');
    expect(await within(panel).findByText('Awa Ndiaye')).toBeInTheDocument();
    expect(panel).toHaveTextContent('patient.read');
    expect(panel).toHaveTextContent('Moussa Traoré (HGG-000042)');
    expect(panel).toHaveTextContent('10.0.0.7');

    await user.type(within(panel).getByRole('combobox', { name: 'Action' }), 'staff.*');
    const listed = () =>
      view.fetchMock.mock.calls
        .map((c) => new URL(String(c[0]), 'http://localhost'))
        .filter((u) => u.pathname === '/api/admin/audit/');
    await vi.waitFor(() => expect(listed().at(-1)?.searchParams.get('action')).toBe('staff.*'), {
      timeout: 10_000,
    });
    await user.click(within(panel).getByRole('button', { name: 'Exporter en CSV' }));
    await vi.waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled(), { timeout: 10_000 });
    const exported = view.fetchMock.mock.calls
      .map((c) => ({
        url: new URL(String(c[0]), 'http://localhost'),
        init: (c as unknown[])[1] as RequestInit | undefined,
      }))
      .find((c) => c.url.pathname === '/api/admin/audit/export/')!;
    expect(exported.url.searchParams.get('action')).toBe('staff.*');
    expect(exported.init?.headers).toMatchObject({
      Authorization: 'Bearer a',
      'Hospital-ID': expect.any(String),
    });
  });
});
