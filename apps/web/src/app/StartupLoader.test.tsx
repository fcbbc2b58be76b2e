import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TestProviders } from '../test/render';
import { StartupLoader } from './StartupLoader';

afterEach(() => vi.useRealTimers());

describe('start-up loader', () => {
  it('rotates its English messages every 2000 ms', () => {
    vi.useFakeTimers();
    render(
      <TestProviders>
        <StartupLoader lang="en" />
      </TestProviders>,
    );
    const message = () => screen.getByTestId('startup-message').textContent;
    expect(screen.getByText('Greensen')).toBeInTheDocument();
    expect(message()).toBe('Initializing...');
    act(() => vi.advanceTimersByTime(1999));
    expect(message()).toBe('Initializing...');
    act(() => vi.advanceTimersByTime(1));
    expect(message()).toBe('Preparing dashboard...');
    act(() => vi.advanceTimersByTime(2000));
    expect(message()).toBe('Almost ready...');
    act(() => vi.advanceTimersByTime(2000));
    expect(message()).toBe('Initializing...');
  });

  it('speaks French', () => {
    vi.useFakeTimers();
    render(
      <TestProviders>
        <StartupLoader lang="fr" />
      </TestProviders>,
    );
    expect(screen.getByTestId('startup-message')).toHaveTextContent('Initialisation...');
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByTestId('startup-message')).toHaveTextContent('Préparation du tableau de bord...');
  });
});
