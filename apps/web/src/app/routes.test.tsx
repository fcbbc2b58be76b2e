import { screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

it('opens a page of lazy routes without a warning in the console (HydrateFallback, decision 0094)', async () => {
  const warn = vi.spyOn(console, 'warn');
  renderApp('/login');
  expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
  expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([]);
});
