import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the administrator's dashboard", () => {
  it('says why a tab whose module is not in service yet is empty instead of showing a blank tab', async () => {
    const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });
    renderApp('/', { user: admin });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Analyses' }, { timeout: 15_000 }));
    expect(await screen.findByTestId('tab-pending')).toHaveTextContent(
      'ce tableau se remplira quand le reporting sera en service',
    );
  });
});
