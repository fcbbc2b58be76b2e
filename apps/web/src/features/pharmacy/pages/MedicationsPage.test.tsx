import type { TMedication } from '@greensen/shared/contracts/pharmacy';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AMOX_CAPS, pageOf, presentation } from '../../../lib/clinical/components/pharmacy.fixture';
import { stubDesktopWidth } from '../../../test/media-query';
import { makeUser, renderApp } from '../../../test/render';

beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const pharmacist = makeUser({
  active_roles: [{ role_code: 'PHARMACIST', hospital: 'h1', department: null }],
});

const medication = (over: Partial<TMedication>): TMedication => ({
  id: '0190f0f0-dddd-7222-8333-444455550001',
  inn_fr: 'Amoxicilline',
  inn_en: 'Amoxicillin',
  atc_code: 'J01CA04',
  group_fr: 'Antibiotiques',
  group_en: 'Antibiotics',
  brands: [],
  allergy_classes: ['penicillins'],
  essential: true,
  presentations: [AMOX_CAPS],
  ...over,
});
const AMOXICILLIN = medication({});
const PARACETAMOL = medication({
  id: '0190f0f0-dddd-7222-8333-444455550002',
  inn_fr: 'Paracétamol',
  inn_en: 'Paracetamol',
  atc_code: 'N02BE01',
  group_fr: 'Antalgiques',
  group_en: 'Analgesics',
  allergy_classes: [],
  presentations: [
    presentation({ id: '0190f0f0-cccc-7222-8333-444455550009', form: 'tablet', unit: 'tablet' }),
  ],
});

describe('/medications', () => {
  it('sends what is typed in the search box to the server as its search, and lists what it answers', async () => {
    const asked: URLSearchParams[] = [];
    renderApp('/medications', {
      user: pharmacist,
      routes: {
        '/api/medications/': ({ url }) => {
          asked.push(url.searchParams);
          const search = url.searchParams.get('search');
          return pageOf(search ? [AMOXICILLIN] : [AMOXICILLIN, PARACETAMOL]);
        },
      },
    });
    expect(await screen.findByText('Paracétamol', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(asked[0]?.has('search')).toBe(false);

    await userEvent.type(
      screen.getByRole('textbox', { name: 'Médicament (DCI, marque ou code ATC)' }),
      'amox',
    );
    await vi.waitFor(() => expect(asked.at(-1)?.get('search')).toBe('amox'));
    expect(await screen.findByText('Amoxicilline')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText('Paracétamol')).not.toBeInTheDocument());
  });
});
