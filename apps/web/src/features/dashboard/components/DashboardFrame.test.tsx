import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the nurse's dashboard", () => {
  it('says why "Mes patients" is empty instead of showing a blank tab', async () => {
    const nurse = makeUser({ active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }] });
    renderApp('/', { user: nurse });
    expect(await screen.findByRole('tab', { name: 'Mes patients' })).toBeInTheDocument();
    expect(await screen.findByTestId('tab-pending')).toHaveTextContent(
      'ce tableau se remplira quand les hospitalisations et les soins seront en service',
    );
  });
});
