import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../test/render';
import ToastContainer, { TOASTS_TOP } from './toast-container';

describe('toasts', () => {
  it('start below the header, never over the user menu', () => {
    render(
      <TestProviders>
        <ToastContainer />
      </TestProviders>,
    );
    // The test providers have a container of their own: ours is the one above everything (z-index 2000).
    const topRight = [...document.querySelectorAll<HTMLElement>('[data-position="top-right"]')].find((el) =>
      el.style.getPropertyValue('--notifications-z-index').includes('2000'),
    );
    expect(topRight).toBeDefined();
    expect(topRight?.style.top).toBe(`${TOASTS_TOP}px`);
  });
});
