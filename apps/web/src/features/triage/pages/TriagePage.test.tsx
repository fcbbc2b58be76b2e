import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubDesktopWidth } from '../../../test/media-query';
import { makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const nurse = makeUser({ active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }] });
const page = (results: unknown[]) =>
  Response.json({ count: results.length, next: null, previous: null, results });

const entry = {
  admission_id: '0190f0f0-1111-7222-8333-444455550001',
  patient: {
    id: '0190f0f0-7777-7222-8333-444455556601',
    full_name: 'Joseph Kabila',
    record_number: 'HGG-000042',
    sex: 'M',
    age: 54,
    allergies: [],
    allergies_recorded: true,
  },
  department: { id: '0190f0f0-2222-7222-8333-444455550001', name: 'Urgences' },
  status: 'waiting',
  queue_number: 4,
  admitted_at: '2026-03-04T08:00:00Z',
  reason: 'Douleur thoracique depuis une heure',
  triage: null,
  doctor: null,
  waited_minutes: 12,
  target_exceeded: false,
};

// Issue 37: the triage list said "—" as the Motif of a patient not yet triaged whose admission has a reason.
describe('the triage list', () => {
  it('shows the admission’s reason as the Motif of a patient not yet triaged', async () => {
    stubDesktopWidth();
    renderApp('/triage', {
      user: nurse,
      routes: {
        '/api/triage/': () => Response.json({ ...pageBody([entry]), scale: 'FRENCH' }),
        '/api/departments/': () => page([]),
      },
    });
    const row = (await screen.findByText('Joseph Kabila', {}, { timeout: 15_000 })).closest(
      'tr',
    ) as HTMLElement;
    expect(within(row).getByText('Douleur thoracique depuis une heure')).toBeInTheDocument();
  }, 30_000);
});

function pageBody(results: unknown[]) {
  return { count: results.length, next: null, previous: null, results };
}
