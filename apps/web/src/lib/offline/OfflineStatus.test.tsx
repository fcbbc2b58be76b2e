import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { TestProviders } from '../../test/render';
import { TOAST_Z_INDEX } from '../toast-layer';
import { clinicalQueue } from './clinical-queue';
import { OfflineQueueButton } from './OfflineStatus';

afterEach(() => {
  clinicalQueue().clear();
  vi.unstubAllGlobals();
});

it('the queue’s list opens above the toasts (the "en attente d’envoi" toast must not cover it)', async () => {
  vi.stubGlobal('navigator', { ...navigator, onLine: false });
  clinicalQueue().enqueue({
    key: 'k1',
    owner: 'u:h',
    kind: 'vitals',
    label: 'Didier Mwamba',
    path: 'care/rounds/',
    body: {},
    at: '2026-03-04T10:00:00Z',
    status: 'pending',
  });
  render(
    <TestProviders>
      <OfflineQueueButton />
    </TestProviders>,
  );
  await userEvent.setup().click(screen.getByTestId('offline-queue-count'));
  const list = await screen.findByTestId('offline-queue');
  expect(list).toHaveTextContent('Constantes · Didier Mwamba');
  const dropdown = list.closest<HTMLElement>('.mantine-Popover-dropdown');
  expect(Number(dropdown?.style.zIndex)).toBeGreaterThan(TOAST_Z_INDEX);
});
